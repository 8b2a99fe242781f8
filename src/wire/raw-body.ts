import type { JsonObject } from '../core/json.js';
import { scanTopLevelMembers } from './top-level-members.js';
import type { MemberSpan } from './top-level-members.js';

/**
 * The bytes a body was parsed from, and its top-level values as parsed (to tell which ones changed since). The
 * bytes are kept as a Latin-1 string (one character per byte), not as the Buffer they arrived in: a Buffer's
 * memory lives outside the JavaScript heap, and one held for the whole of a request (seconds, while the provider
 * answers) outlives the young generation and is freed only at the next full collection. Tens of megabytes of
 * such request buffers piled up between full collections and left glibc's heap fragmented at that high-water
 * mark (bench/memory.ts); the same bytes as a one-byte string are collected and compacted with everything else.
 */
interface RawSource {
  bytes: string;
  parsed: Map<string, unknown>;
  /** Scanned on first use; null when the bytes have a shape the splice does not handle (then: stringify). */
  members?: Map<string, MemberSpan> | null;
  /**
   * Values whose text is not in `bytes` but shared with other requests (`shared-members.ts`), in text order: a
   * one-character placeholder stands at `at` in `bytes`, and `text`, exactly the client's, is what gets copied.
   */
  shared?: readonly SharedText[];
}

export interface SharedText {
  at: number;
  text: string;
}

const sources = new WeakMap<object, RawSource>();

/** What the body reader may already know about the bytes: their member spans, and values shared with other requests. */
export interface RawBodyParts {
  members?: Map<string, MemberSpan> | null;
  shared?: readonly SharedText[];
}

/**
 * Remembers where a freshly parsed request body came from, so it can be forwarded without re-serialising: its
 * bytes, or the same bytes read as Latin-1 (`buffer.toString('latin1')`, which the body reader already has).
 */
export function attachRawBody(body: JsonObject, bytes: Buffer | string, parts: RawBodyParts = {}): void {
  sources.set(body, { bytes: typeof bytes === 'string' ? bytes : bytes.toString('latin1'), parsed: new Map(Object.entries(body)), ...parts });
}

/** A shallow copy of `from` (the body going upstream in the client's own format) shares its source. */
export function inheritRawBody(copy: JsonObject, from: JsonObject): void {
  const source = sources.get(from);
  if (source) sources.set(copy, source);
}

/**
 * The body as JSON bytes. For a body read from a client, every top-level member still holding the value that
 * was parsed is copied from the client's own bytes, and only the members the gateway replaced or added are
 * serialised: a 70 KB agent request whose model name changed costs a copy instead of a JSON.stringify and a
 * UTF-8 encode, and unknown fields reach the provider exactly as the client wrote them.
 *
 * This relies on the request path never mutating a parsed value in place (stages replace top-level members);
 * `HERMES_ROUTER_VERIFY_RAW_BODIES=1` (set in the test suite) checks every spliced body against the object.
 */
export function serializeJsonBody(body: JsonObject): Buffer {
  const source = sources.get(body);
  if (!source) return Buffer.from(JSON.stringify(body));
  if (source.members === undefined) source.members = scanTopLevelMembers(source.bytes) ?? null;
  const members = source.members;
  if (members === null) return Buffer.from(JSON.stringify(body));
  // Copied members are Latin-1 text (the bytes as they came), serialised ones UTF-16 text (written as UTF-8):
  // measured first, then written into one Buffer of the exact size.
  // A part that `continues` the one before it is written right after it (pieces of one member), others after a comma.
  const parts: { text: string; encoding: 'latin1' | 'utf8'; continues?: true }[] = [];
  let length = 1;
  for (const key of Object.keys(body)) {
    const value = body[key];
    const span = members.get(key);
    if (span !== undefined && source.parsed.has(key) && source.parsed.get(key) === value) {
      // The member's bytes, with the shared texts it holds in place of their placeholders.
      let from = span.start;
      for (const shared of source.shared ?? []) {
        if (shared.at < span.start || shared.at >= span.end) continue;
        parts.push({ text: source.bytes.slice(from, shared.at), encoding: 'latin1', ...(from > span.start ? { continues: true as const } : {}) });
        parts.push({ text: shared.text, encoding: 'latin1', continues: true });
        length += shared.at - from + shared.text.length;
        from = shared.at + 1;
      }
      parts.push({ text: source.bytes.slice(from, span.end), encoding: 'latin1', ...(from > span.start ? { continues: true as const } : {}) });
      length += span.end - from + 1;
    } else {
      const serialized = JSON.stringify(value);
      // JSON.stringify leaves out undefined values and functions; so does this.
      if (serialized === undefined) continue;
      const text = `${JSON.stringify(key)}:${serialized}`;
      parts.push({ text, encoding: 'utf8' });
      length += Buffer.byteLength(text) + 1;
    }
  }
  // `length` counted a comma (or the closing brace) after each part and the opening brace.
  const spliced = Buffer.allocUnsafe(Math.max(2, length));
  let offset = spliced.write('{', 0, 'latin1');
  for (const [index, part] of parts.entries()) {
    if (index > 0 && part.continues === undefined) offset += spliced.write(',', offset, 'latin1');
    offset += spliced.write(part.text, offset, part.encoding);
  }
  spliced.write('}', offset, 'latin1');
  if (process.env.HERMES_ROUTER_VERIFY_RAW_BODIES === '1') verifySplice(spliced, body);
  return spliced;
}

function verifySplice(spliced: Buffer, body: JsonObject): void {
  const expected = JSON.stringify(body);
  const actual = JSON.stringify(JSON.parse(spliced.toString('utf8')));
  if (actual !== expected) {
    throw new Error('a spliced upstream body differs from the body object: a stage mutated a parsed value in place');
  }
}
