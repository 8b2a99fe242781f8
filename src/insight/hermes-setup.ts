import { isMap, isSeq, parseDocument } from 'yaml';
import { setBlockScalar } from './yaml-text-edit.js';

export const hermesProviderName = 'hermes-router';

export interface HermesSetupOptions {
  /** The gateway's base URL Hermes should call: `http://127.0.0.1:8319/v1`, or one ending in `/anthropic` (Hermes then speaks the Anthropic API). */
  baseUrl: string;
  /** The model name Hermes sends; the alias `hermes-router` lets the gateway choose. */
  model: string;
  /** Name of an environment variable holding a gateway application key; a placeholder key otherwise. */
  keyEnv?: string | undefined;
  /**
   * Make the gateway Hermes's default model instead (`model: {provider: custom, base_url, default, api_key}`):
   * only those four lines change, and no `custom_providers` entry is added (Hermes would not use it).
   */
  makeDefault?: boolean;
  /**
   * What `model.api_key` becomes with `makeDefault`: the gateway's application key when keys are required, else
   * a placeholder; never the previous provider's key, which would be sent to the gateway.
   */
  apiKey?: string | undefined;
}

export interface HermesSetupPlan {
  changed: boolean;
  text: string;
  /** `-`/`+` lines between the old and new file. */
  diff: string[];
}

/** Line diff by longest common subsequence; config files are small. */
export function lineDiff(before: string, after: string): string[] {
  const left = before.split('\n');
  const right = after.split('\n');
  const table: number[][] = Array.from({ length: left.length + 1 }, () => new Array<number>(right.length + 1).fill(0));
  for (let i = left.length - 1; i >= 0; i -= 1) {
    for (let j = right.length - 1; j >= 0; j -= 1) {
      const row = table[i] ?? [];
      row[j] = left[i] === right[j] ? (table[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(table[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      i += 1;
      j += 1;
    } else if (i < left.length && (j >= right.length || (table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))) {
      lines.push(`- ${left[i]}`);
      i += 1;
    } else {
      lines.push(`+ ${right[j]}`);
      j += 1;
    }
  }
  return lines;
}

/** Placeholder key: Hermes insists on one; a gateway on loopback without application keys ignores it. */
export const placeholderApiKey = 'hermes-router-local';

/**
 * `--make-default`: points `model:` at the gateway by editing only `model.provider`, `model.base_url`,
 * `model.default` and `model.api_key` in place (every other byte of the file stays as it was). The previous
 * provider's `api_key` is replaced, never kept: Hermes would send that secret to the gateway.
 */
function planDefaultModel(existing: string, options: HermesSetupOptions): string {
  const settings: [string, string][] = [
    ['provider', 'custom'],
    ['base_url', options.baseUrl],
    ['default', options.model],
    ['api_key', options.apiKey ?? placeholderApiKey],
  ];
  let text: string | undefined = existing;
  for (const [key, value] of settings) {
    text = text === undefined ? undefined : setBlockScalar(text, 'model', key, value);
  }
  if (text !== undefined) return text;
  // A `model:` this cannot edit in place (a flow map): rewrite through the YAML document instead.
  const document = parseDocument(existing === '' ? '{}' : existing);
  for (const [key, value] of settings) document.setIn(['model', key], value);
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/**
 * Adds (or updates) the gateway as a `custom_providers` entry in Hermes's config.yaml, keeping every other
 * setting and comment (the YAML writer may normalise spacing before a trailing comment; the diff shows it); with
 * `makeDefault`, only points `model:` at it (see `planDefaultModel`). Running it again changes nothing.
 */
export function planHermesSetup(existing: string, options: HermesSetupOptions): HermesSetupPlan {
  const document = parseDocument(existing === '' ? '{}' : existing);
  if (document.errors.length > 0) throw new Error(`config.yaml is not valid YAML: ${document.errors[0]?.message ?? ''}`);
  if (document.contents !== null && !isMap(document.contents)) throw new Error('config.yaml does not hold a mapping at the top level');
  if (options.makeDefault) {
    const text = planDefaultModel(existing, options);
    const changed = text !== existing;
    return { changed, text, diff: changed ? lineDiff(existing, text) : [] };
  }
  const entry: Record<string, string> = { name: hermesProviderName, base_url: options.baseUrl, model: options.model };
  if (options.keyEnv) entry.key_env = options.keyEnv;
  else entry.api_key = 'hermes-router-local';
  const providers = document.get('custom_providers');
  if (providers === undefined || providers === null) {
    document.set('custom_providers', document.createNode([entry]));
  } else if (isSeq(providers)) {
    const index = providers.items.findIndex((item) => isMap(item) && item.get('name') === hermesProviderName);
    if (index === -1) providers.add(document.createNode(entry));
    else {
      const current = providers.items[index];
      if (isMap(current)) {
        for (const [key, value] of Object.entries(entry)) if (current.get(key) !== value) current.set(key, value);
        // A key kind the user switched away from must not linger next to the new one.
        if (entry.key_env !== undefined && current.has('api_key')) current.delete('api_key');
        if (entry.api_key !== undefined && current.has('key_env')) current.delete('key_env');
      }
    }
  } else {
    throw new Error('custom_providers in config.yaml is not a list');
  }
  let text = document.toString({ lineWidth: 0, flowCollectionPadding: false });
  if (text.trim() === '{}') text = '';
  const changed = text !== existing;
  return { changed, text, diff: changed ? lineDiff(existing, text) : [] };
}
