import type { JsonObject } from '../core/json.js';
import { scanTopLevelMembers } from './top-level-members.js';
import type { MemberSpan } from './top-level-members.js';

/** The bytes a body was parsed from, and its top-level values as parsed (to tell which ones changed since). */
interface RawSource {
  bytes: Buffer;
  parsed: Map<string, unknown>;
  /** Scanned on first use; null when the bytes have a shape the splice does not handle (then: stringify). */
  members?: Map<string, MemberSpan> | null;
}

const sources = new WeakMap<object, RawSource>();

/** Remembers where a freshly parsed request body came from, so it can be forwarded without re-serialising. */
export function attachRawBody(body: JsonObject, bytes: Buffer): void {
  sources.set(body, { bytes, parsed: new Map(Object.entries(body)) });
}

/** A shallow copy of `from` (the body going upstream in the client's own format) shares its source. */
export function inheritRawBody(copy: JsonObject, from: JsonObject): void {
  const source = sources.get(from);
  if (source) sources.set(copy, source);
}

const comma = Buffer.from(',');
const open = Buffer.from('{');
const close = Buffer.from('}');

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
  const parts: Buffer[] = [open];
  for (const key of Object.keys(body)) {
    const value = body[key];
    const span = members.get(key);
    let part: Buffer | undefined;
    if (span !== undefined && source.parsed.has(key) && source.parsed.get(key) === value) {
      part = source.bytes.subarray(span.start, span.end);
    } else {
      const serialized = JSON.stringify(value);
      // JSON.stringify leaves out undefined values and functions; so does this.
      if (serialized === undefined) continue;
      part = Buffer.from(`${JSON.stringify(key)}:${serialized}`);
    }
    if (parts.length > 1) parts.push(comma);
    parts.push(part);
  }
  parts.push(close);
  const spliced = Buffer.concat(parts);
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
