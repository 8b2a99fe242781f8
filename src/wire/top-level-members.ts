/**
 * Where one top-level member of a JSON object sits in its bytes: from the key's opening quote to the value's end.
 * The bytes are read as a Latin-1 string (one character per byte, `buffer.toString('latin1')`), so the offsets are
 * byte offsets and a request body can be kept on the JavaScript heap rather than as a Buffer.
 */
export interface MemberSpan {
  start: number;
  /** Where the value begins (after the colon and any whitespace). */
  valueStart: number;
  end: number;
}

const quote = 0x22;
const quoteCharacter = '"';
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const colon = 0x3a;
const comma = 0x2c;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The index just past the string whose opening quote is at `start`; -1 when it never closes. */
function skipString(bytes: string, start: number): number {
  let index = start + 1;
  for (;;) {
    index = bytes.indexOf(quoteCharacter, index);
    if (index < 0) return -1;
    let backslashes = 0;
    while (bytes.charCodeAt(index - 1 - backslashes) === backslash) backslashes += 1;
    if (backslashes % 2 === 0) return index + 1;
    index += 1;
  }
}

/** The index just past the value starting at `start` (-1 if it never ends; in text that is not JSON, a guess). */
function skipValue(bytes: string, start: number): number {
  const first = bytes.charCodeAt(start);
  if (first === quote) return skipString(bytes, start);
  if (first === openBrace || first === openBracket) {
    let depth = 0;
    let index = start;
    while (index < bytes.length) {
      const byte = bytes.charCodeAt(index);
      if (byte === quote) {
        index = skipString(bytes, index);
        if (index < 0) return -1;
        continue;
      }
      if (byte === openBrace || byte === openBracket) depth += 1;
      else if (byte === closeBrace || byte === closeBracket) {
        depth -= 1;
        if (depth === 0) return index + 1;
      }
      index += 1;
    }
    return -1;
  }
  // A number, true, false or null: runs to the next delimiter.
  let index = start;
  while (index < bytes.length) {
    const byte = bytes.charCodeAt(index);
    if (byte === comma || byte === closeBrace || isWhitespace(byte)) return index;
    index += 1;
  }
  return -1;
}

/** The text of Latin-1-read UTF-8 bytes. */
function utf8Of(latin1: string): string {
  return /[\x80-\xff]/.test(latin1) ? Buffer.from(latin1, 'latin1').toString('utf8') : latin1;
}

/** A key's text, or undefined for one that is not a JSON string (text that is not JSON: the parse will say why). */
function keyOf(quoted: string): string | undefined {
  try {
    return JSON.parse(utf8Of(quoted)) as string;
  } catch {
    return undefined;
  }
}

function skipWhitespace(bytes: string, start: number): number {
  let index = start;
  while (index < bytes.length && isWhitespace(bytes.charCodeAt(index))) index += 1;
  return index;
}

/**
 * The spans of a JSON object's top-level members, by key. Exact for bytes that parse as a JSON object; for
 * others, whatever it returns is a guess the caller must check (`shared-members.ts` parses what it cuts out).
 * Undefined when a key appears twice (JSON.parse keeps the last; copying spans could not say which) or the
 * bytes are not shaped as expected.
 */
export function scanTopLevelMembers(source: Buffer | string): Map<string, MemberSpan> | undefined {
  const bytes = typeof source === 'string' ? source : source.toString('latin1');
  const members = new Map<string, MemberSpan>();
  let index = skipWhitespace(bytes, 0);
  if (bytes.charCodeAt(index) !== openBrace) return undefined;
  index = skipWhitespace(bytes, index + 1);
  if (bytes.charCodeAt(index) === closeBrace) return members;
  for (;;) {
    if (bytes.charCodeAt(index) !== quote) return undefined;
    const keyStart = index;
    const keyEnd = skipString(bytes, keyStart);
    if (keyEnd < 0) return undefined;
    const key = keyOf(bytes.slice(keyStart, keyEnd));
    if (key === undefined) return undefined;
    index = skipWhitespace(bytes, keyEnd);
    if (bytes.charCodeAt(index) !== colon) return undefined;
    const valueStart = skipWhitespace(bytes, index + 1);
    const valueEnd = skipValue(bytes, valueStart);
    if (valueEnd < 0) return undefined;
    if (members.has(key)) return undefined;
    members.set(key, { start: keyStart, valueStart, end: valueEnd });
    index = skipWhitespace(bytes, valueEnd);
    if (bytes.charCodeAt(index) === comma) {
      index = skipWhitespace(bytes, index + 1);
      continue;
    }
    return bytes.charCodeAt(index) === closeBrace ? members : undefined;
  }
}

/**
 * The span of the first element of the array that is `member`'s value (`start` = `valueStart`: an element has no
 * key); undefined when the value is not an array or is empty. Exact for text that parses, a guess otherwise.
 */
export function firstElementSpan(bytes: string, member: MemberSpan): MemberSpan | undefined {
  if (bytes.charCodeAt(member.valueStart) !== openBracket) return undefined;
  const start = skipWhitespace(bytes, member.valueStart + 1);
  if (start >= member.end || bytes.charCodeAt(start) === closeBracket) return undefined;
  const end = skipValue(bytes, start);
  return end < 0 || end > member.end ? undefined : { start, valueStart: start, end };
}
