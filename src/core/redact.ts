import { isJsonObject } from './json.js';
import { knownSecrets as configuredSecrets } from './known-secrets.js';

/**
 * Secret shapes providers echo back in error bodies ("Incorrect API key provided: sk-…") and that clients paste
 * into prompts. Each match keeps at most its last four characters, so an operator can still tell keys apart.
 */
const secretPatterns: RegExp[] = [
  /\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(?:sk|rk|pk)-[A-Za-z0-9_-]{4,}/g,
  /\b(?:hrk|hra)_[A-Za-z0-9_-]{8,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\b(?:gsk|xai|ghp|gho|github_pat|glpat)[-_][A-Za-z0-9_-]{8,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
/** `api_key=…`, `"x-api-key": "…"`, `?key=…`: whatever value follows a key-ish name. */
const namedSecret = /\b((?:x-)?api[_-]?key|access[_-]?token|secret|password|key|token)(["']?\s*[:=]\s*["']?)([^\s"'&,;}]{6,})/gi;

function masked(secret: string): string {
  return secret.length >= 16 ? `[redacted …${secret.slice(-4)}]` : '[redacted]';
}

/**
 * Replaces every configured secret (`known-secrets.ts`, whatever its shape) and anything shaped like a credential
 * in a text. `extraSecrets` adds values only this caller knows.
 */
export function redactSecrets(text: string, extraSecrets: readonly string[] = []): string {
  let result = text;
  for (const secret of [...extraSecrets, ...configuredSecrets()]) {
    if (secret.length >= 4 && result.includes(secret)) result = result.split(secret).join(masked(secret));
  }
  for (const pattern of secretPatterns) result = result.replace(pattern, (match) => masked(match));
  return result.replace(namedSecret, (match, name: string, separator: string, value: string) =>
    value.startsWith('[redacted') ? match : `${name}${separator}${masked(value)}`,
  );
}

/** The same, through every string of a parsed JSON value (keys included), returning a copy. */
export function redactJson(value: unknown, extraSecrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value, extraSecrets);
  // Provider error bodies are small; a pathological depth is cut rather than recursed into.
  if (depth > 32) return '[truncated]';
  if (Array.isArray(value)) return value.map((item) => redactJson(item, extraSecrets, depth + 1));
  if (isJsonObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, so a `__proto__` key stays a plain key instead of replacing the copy's prototype.
      Object.defineProperty(copy, redactSecrets(key, extraSecrets), { value: redactJson(item, extraSecrets, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
  return value;
}
