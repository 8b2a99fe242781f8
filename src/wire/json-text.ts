import { isAscii } from 'node:buffer';

/** Bytes ≥ 0x80 in a row: whole UTF-8 characters, since a character's bytes never include ASCII ones. */
const nonAsciiRun = /[\x80-\xff]+/g;
const nonAsciiByte = /[\x80-\xff]/;
const hexDigits = '0123456789abcdef';

/**
 * The text of a UTF-8 JSON body, ready for JSON.parse, kept one-byte. Decoding a body with a single non-ASCII
 * character as UTF-8 yields a two-byte string of twice the size (past V8's large-object size for a 70 KB agent
 * request); decoding and parsing the Hermes turn-1 body that way costs about 1.1 ms of CPU here, this way
 * about 0.2 ms. Non-ASCII bytes can only stand inside JSON strings, where `\uXXXX` means the same characters,
 * so escaping them yields text that parses to identical values.
 *
 * The caller has checked the bytes are valid UTF-8. `latin1` is `bytes.toString('latin1')` when the caller has it
 * already (the body reader keeps it as the request's raw source): for an ASCII body the text is that very string.
 */
export function jsonTextOf(bytes: Buffer, latin1: string = bytes.toString('latin1')): string {
  // Latin-1 maps each byte to one character: a one-byte string where every non-ASCII byte stands alone.
  if (isAscii(bytes)) return latin1;
  return latin1.replace(nonAsciiRun, (run: string, offset: number) => escapeNonAscii(bytes.toString('utf8', offset, offset + run.length)));
}

function escapeNonAscii(text: string): string {
  let escaped = '';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    escaped += `\\u${hexDigits[(unit >> 12) & 15]}${hexDigits[(unit >> 8) & 15]}${hexDigits[(unit >> 4) & 15]}${hexDigits[unit & 15]}`;
  }
  return escaped;
}

/**
 * Parses a UTF-8 JSON body from its Latin-1 view, to the same values as `JSON.parse(bytes.toString('utf8'))`,
 * without a second copy of the text. `jsonTextOf` writes a new escaped text (~70 KB, and the pieces it is
 * built from: ~100 KB allocated per Hermes request) that lives only until the parse; here the Latin-1 view is
 * parsed as it is, so each non-ASCII character arrives as its UTF-8 bytes, one character per byte, and only the
 * strings that hold such bytes are decoded afterwards (a few short ones in an agent request). That is exact
 * while no escape in the text stands for a character U+0080…U+00FF, which would arrive looking like a raw byte:
 * such a text (rare; clients that escape non-ASCII usually write `\u00e9`) is parsed through `jsonTextOf`.
 *
 * The caller has checked the bytes are valid UTF-8; `latin1` is `bytes.toString('latin1')`. Throws what
 * JSON.parse throws.
 */
export function parseJsonBytes(bytes: Buffer, latin1: string): unknown {
  if (isAscii(bytes)) return JSON.parse(latin1);
  if (hasLatin1Escape(latin1)) return JSON.parse(jsonTextOf(bytes, latin1));
  return decodeRawCharacters(JSON.parse(latin1) as unknown);
}

/** Whether the text holds a `\u0080`…`\u00ff` escape (or text that looks like one), which a Latin-1 parse would read as a raw byte. */
function hasLatin1Escape(text: string): boolean {
  for (let index = text.indexOf('\\u00'); index >= 0; index = text.indexOf('\\u00', index + 4)) {
    const digit = text.charCodeAt(index + 4);
    // 8, 9, a-f, A-F: the escape stands for a character U+0080…U+00FF.
    if (digit === 0x38 || digit === 0x39 || (digit >= 0x61 && digit <= 0x66) || (digit >= 0x41 && digit <= 0x46)) return true;
  }
  return false;
}

/** Whether a string parsed from a Latin-1 view holds a raw byte (a short one is looked at without a regex call). */
function hasRawByte(text: string): boolean {
  if (text.length > 32) return nonAsciiByte.test(text);
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) > 0x7f) return true;
  return false;
}

/** A run of UTF-8 bytes read as Latin-1 (whole, valid characters: the body passed isUtf8), decoded. */
function decodeRun(run: string): string {
  let decoded = '';
  let index = 0;
  while (index < run.length) {
    const lead = run.charCodeAt(index);
    if (lead < 0xe0) {
      decoded += String.fromCharCode(((lead & 0x1f) << 6) | (run.charCodeAt(index + 1) & 0x3f));
      index += 2;
    } else if (lead < 0xf0) {
      decoded += String.fromCharCode(((lead & 0x0f) << 12) | ((run.charCodeAt(index + 1) & 0x3f) << 6) | (run.charCodeAt(index + 2) & 0x3f));
      index += 3;
    } else {
      decoded += String.fromCodePoint(
        ((lead & 0x07) << 18) | ((run.charCodeAt(index + 1) & 0x3f) << 12) | ((run.charCodeAt(index + 2) & 0x3f) << 6) | (run.charCodeAt(index + 3) & 0x3f),
      );
      index += 4;
    }
  }
  return decoded;
}

/** A string whose characters ≥ U+0080 are UTF-8 bytes read as Latin-1, decoded. */
function decodeRaw(text: string): string {
  return text.replace(nonAsciiRun, decodeRun);
}

type Container = unknown[] | Record<string, unknown>;

/**
 * Decodes every string (values and keys) of a value parsed from a Latin-1 view, in place, and returns it (a new
 * object where a key had to change, keys in the same order). Iterative: a deeply nested body that JSON.parse
 * accepted must not overflow the stack here.
 */
function decodeRawCharacters(root: unknown): unknown {
  const pending: Container[] = [];
  const top = decodedMember(root, pending);
  for (let container = pending.pop(); container !== undefined; container = pending.pop()) {
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index += 1) {
        const value = container[index];
        const decoded = decodedMember(value, pending);
        if (decoded !== value) container[index] = decoded;
      }
    } else {
      for (const key in container) {
        const value = container[key];
        const decoded = decodedMember(value, pending);
        if (decoded !== value) container[key] = decoded;
      }
    }
  }
  return top;
}

/** One value decoded: a string with raw bytes decoded, an object with its keys decoded (queued in `pending` for its own members), anything else as it is. */
function decodedMember(value: unknown, pending: Container[]): unknown {
  if (typeof value === 'string') return hasRawByte(value) ? decodeRaw(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  const decoded = withDecodedKeys(value as Container);
  pending.push(decoded);
  return decoded;
}

/**
 * `container` itself when none of its keys holds a raw byte; else a copy with decoded keys, in the same order
 * (defined, not assigned: a `__proto__` key stays an own property, as JSON.parse makes it). Two keys that
 * decode to the same text (a raw character and its `\uD83D…` escape) become one, holding the later value at the
 * earlier position, as JSON.parse of the UTF-8 text does.
 */
function withDecodedKeys(container: Container): Container {
  if (Array.isArray(container)) return container;
  let needed = false;
  for (const key in container) {
    if (hasRawByte(key)) {
      needed = true;
      break;
    }
  }
  if (!needed) return container;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(container)) {
    Object.defineProperty(copy, hasRawByte(key) ? decodeRaw(key) : key, { value: container[key], writable: true, enumerable: true, configurable: true });
  }
  return copy;
}
