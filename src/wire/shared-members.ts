import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';
import { parseJsonBytes } from './json-text.js';
import { attachRawBody } from './raw-body.js';
import { firstElementSpan, scanTopLevelMembers } from './top-level-members.js';
import type { MemberSpan } from './top-level-members.js';

/**
 * What an agent sends unchanged on every turn of every session: its tool definitions, and its system prompt
 * (a top-level member, or the first message). A Hermes first turn is 80 KB: 63 KB of `tools` and a 16 KB system
 * message. Parsed per request, those ~2,000 objects and strings (two-byte where the text holds an em dash) lived
 * as long as the request waited for its provider, so under load most of them outlived the young generation and
 * were promoted, and the old generation filled with them between full collections (docs/deployment.md, "Under
 * load"). A value whose exact text was seen before is shared instead: parsed once, frozen (nothing may edit a
 * parsed value in place anyway: `raw-body.ts`), and the request keeps only the bytes that are its own.
 */
const sharedMemberKeys = new Set(['tools', 'system', 'instructions', 'systemInstruction']);
/** Members whose first element is shared when it is a system prompt (chat `messages`, Responses `input`). */
const leadingMessageKeys = new Set(['messages', 'input']);
/** Smaller values are cheaper to parse than to look up and keep. */
const minimumSharedLength = 2048;
const maximumSharedLength = 1 << 20;
/** Bodies below this size are parsed as they are (and scanned only if spliced). */
const minimumBodyLength = 8192;
/** At most this many values, of at most this much text in all (their parsed values are ~3x the text). */
const entryLimit = 16;
const characterLimit = 2 << 20;
/** What stands in the rest of the body for a shared value: one character, a number, so the rest still parses. */
const placeholder = Buffer.from('0');

interface SharedValue {
  /** The value's text (Latin-1 view of its bytes), a string of its own: never a slice of a request's bytes. */
  text: string;
  value: unknown;
  lastUsed: number;
}

/** Keyed by the value's text, so a hit is one comparison of the text with what the client sent now. */
const sharedValues = new Map<string, SharedValue>();
let sharedCharacters = 0;
let uses = 0;

/**
 * Parses a request body (UTF-8 bytes and their Latin-1 view, as `parseJsonBytes` takes them) to the same value
 * as `JSON.parse` of its text, and attaches its raw source for the upstream splice. Values at the places above
 * whose text was seen before are the shared values, not parsed again. Throws what `JSON.parse` throws.
 */
export function parseRequestBody(bytes: Buffer, latin1: string): unknown {
  const members = bytes.length >= minimumBodyLength ? scanTopLevelMembers(latin1) : undefined;
  if (members !== undefined) {
    const shared = parseSharing(bytes, latin1, members);
    if (shared !== undefined) return shared;
  }
  const parsed = parseJsonBytes(bytes, latin1);
  if (!isJsonObject(parsed)) return parsed;
  // The scan ran on text that has now parsed, so its spans are exact.
  if (members !== undefined) remember(parsed, bytes, latin1, members);
  attachRawBody(parsed, latin1, bytes.length >= minimumBodyLength ? { members: members ?? null } : {});
  return parsed;
}

/** Where a shareable value stands: a top-level member's value, or the first element of a member's array. */
interface Cut {
  key: string;
  element: boolean;
  span: MemberSpan;
}

function inRange(span: MemberSpan): boolean {
  const length = span.end - span.valueStart;
  return length >= minimumSharedLength && length <= maximumSharedLength;
}

/** The places in a body whose text may be shared, in text order. */
function cutsOf(latin1: string, members: Map<string, MemberSpan>): Cut[] {
  const cuts: Cut[] = [];
  for (const [key, span] of members) {
    if (sharedMemberKeys.has(key) && inRange(span)) cuts.push({ key, element: false, span });
    const first = leadingMessageKeys.has(key) ? firstElementSpan(latin1, span) : undefined;
    if (first !== undefined && inRange(first)) cuts.push({ key, element: true, span: first });
  }
  return cuts;
}

/** Where `cut` stands in the parsed body. */
function valueAt(body: JsonObject, cut: Cut): unknown {
  const value = body[cut.key];
  return cut.element ? (Array.isArray(value) ? (value[0] as unknown) : undefined) : value;
}

function setValueAt(body: JsonObject, cut: Cut, value: unknown): void {
  if (cut.element) (body[cut.key] as unknown[])[0] = value;
  else body[cut.key] = value;
}

/**
 * The body with its known shared values, or undefined when it holds none (or is not what the scan took it for).
 * The rest of the text, each shared value replaced by `0`, is parsed; the scan ran before any parse, so its
 * spans are only trusted once the placeholders came back as the values at those very places.
 */
function parseSharing(bytes: Buffer, latin1: string, members: Map<string, MemberSpan>): JsonObject | undefined {
  const hits: { cut: Cut; shared: SharedValue }[] = [];
  for (const cut of cutsOf(latin1, members)) {
    const shared = sharedValues.get(latin1.slice(cut.span.valueStart, cut.span.end));
    if (shared !== undefined) hits.push({ cut, shared });
  }
  if (hits.length === 0) return undefined;
  const pieces: Buffer[] = [];
  let copiedUpTo = 0;
  for (const { cut } of hits) {
    pieces.push(bytes.subarray(copiedUpTo, cut.span.valueStart), placeholder);
    copiedUpTo = cut.span.end;
  }
  pieces.push(bytes.subarray(copiedUpTo));
  const restBytes = Buffer.concat(pieces);
  const rest = restBytes.toString('latin1');
  let parsed: unknown;
  try {
    parsed = parseJsonBytes(restBytes, rest);
  } catch {
    // Not JSON: parsed whole, so the error is the one the client's own text gives.
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  for (const { cut } of hits) if (valueAt(parsed, cut) !== 0) return undefined;
  for (const { cut, shared } of hits) {
    setValueAt(parsed, cut, shared.value);
    uses += 1;
    shared.lastUsed = uses;
  }
  // Offsets in the rest: each cut before an offset took out its text but for the placeholder's one character.
  const removedBefore = (offset: number) => {
    let removed = 0;
    for (const { cut } of hits) if (cut.span.end <= offset) removed += cut.span.end - cut.span.valueStart - placeholder.length;
    return removed;
  };
  const restMembers = new Map<string, MemberSpan>();
  for (const [key, span] of members) {
    restMembers.set(key, { start: span.start - removedBefore(span.start), valueStart: span.valueStart - removedBefore(span.valueStart), end: span.end - removedBefore(span.end) });
  }
  const shared = hits.map(({ cut, shared: value }) => ({ at: cut.span.valueStart - removedBefore(cut.span.valueStart), text: value.text }));
  attachRawBody(parsed, rest, { members: restMembers, shared });
  return parsed;
}

/** Keeps the body's shareable values (frozen: from now on other requests hold them too). */
function remember(body: JsonObject, bytes: Buffer, latin1: string, members: Map<string, MemberSpan>): void {
  for (const cut of cutsOf(latin1, members)) {
    const value = valueAt(body, cut);
    // Of a conversation only its leading system prompt is the same from session to session.
    if (cut.element && !(isJsonObject(value) && (value.role === 'system' || value.role === 'developer'))) continue;
    // A string of its own (a slice would hold on to the whole request's text).
    const text = bytes.toString('latin1', cut.span.valueStart, cut.span.end);
    if (sharedValues.has(text)) continue;
    while (sharedValues.size >= entryLimit || (sharedValues.size > 0 && sharedCharacters + text.length > characterLimit)) evictLeastRecentlyUsed();
    uses += 1;
    sharedValues.set(text, { text, value: deepFreeze(value), lastUsed: uses });
    sharedCharacters += text.length;
  }
}

function evictLeastRecentlyUsed(): void {
  let oldest: SharedValue | undefined;
  for (const entry of sharedValues.values()) if (oldest === undefined || entry.lastUsed < oldest.lastUsed) oldest = entry;
  if (oldest === undefined) return;
  sharedValues.delete(oldest.text);
  sharedCharacters -= oldest.text.length;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
