import { isAscii } from 'node:buffer';

const blockBytes = 512;
const hexDigits = '0123456789abcdef';

/**
 * The text of a UTF-8 JSON body, ready for JSON.parse, kept one-byte. Decoding a body with a single non-ASCII
 * character as UTF-8 yields a two-byte string of twice the size; past V8's large-object threshold (≈128 KB,
 * a 70 KB agent request) every such string is a fresh mmap, and decoding, parsing, re-encoding it cost
 * several times what the ASCII text does. Non-ASCII bytes can only stand inside JSON strings, where `\uXXXX`
 * means the same characters, so escaping them yields text that parses to identical values.
 *
 * The caller has checked the bytes are valid UTF-8: then every maximal run of bytes ≥ 0x80 is a sequence of
 * whole characters and decodes on its own.
 */
export function jsonTextOf(bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString('latin1');
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (let block = 0; block < bytes.length; block += blockBytes) {
    const blockEnd = Math.min(bytes.length, block + blockBytes);
    if (isAscii(bytes.subarray(block, blockEnd))) continue;
    let index = Math.max(block, copiedUpTo);
    while (index < blockEnd) {
      if ((bytes[index] as number) < 0x80) {
        index += 1;
        continue;
      }
      let runEnd = index + 1;
      while (runEnd < bytes.length && (bytes[runEnd] as number) >= 0x80) runEnd += 1;
      if (index > copiedUpTo) parts.push(bytes.toString('latin1', copiedUpTo, index));
      parts.push(escapeNonAscii(bytes.toString('utf8', index, runEnd)));
      copiedUpTo = runEnd;
      index = runEnd;
    }
  }
  if (copiedUpTo < bytes.length) parts.push(bytes.toString('latin1', copiedUpTo, bytes.length));
  return parts.join('');
}

function escapeNonAscii(text: string): string {
  let escaped = '';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    escaped += `\\u${hexDigits[(unit >> 12) & 15]}${hexDigits[(unit >> 8) & 15]}${hexDigits[(unit >> 4) & 15]}${hexDigits[unit & 15]}`;
  }
  return escaped;
}
