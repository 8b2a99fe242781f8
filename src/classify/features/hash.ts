/**
 * 32-bit FNV-1a over UTF-16 code units. Feature hashing keeps the shipped weights independent of a vocabulary
 * file; the function must never change, or every shipped weights file silently stops matching.
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
