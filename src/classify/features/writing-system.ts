/**
 * The writing system most of a message is in, from its letters: the toolset model reads a script only as well as its
 * training lines in that script taught it, and a message in a script it has barely seen is a guess (the decision
 * then keeps the full surface: classify/toolsets/toolset-classifier.ts, `unfamiliarScriptLines`).
 */

const systems = [
  'Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi', 'Gujarati', 'Oriya',
  'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar', 'Khmer', 'Ethiopic', 'Mongolian', 'Hangul', 'Han', 'Hiragana', 'Katakana',
] as const;
const sampledCharacters = 1500;
const letterPatterns = systems.map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'gu')] as const);

/**
 * `Latin`, `Cyrillic`, `Han`, `Japanese` (kana with or without kanji), … or `none` for a message without letters.
 * Latin letters count a third: a sentence in another script often carries English product names, commands and paths.
 */
export function dominantWritingSystem(text: string): string {
  // The opening is enough to tell the language a message is written in (a long one is mostly pasted material), and
  // it bounds the cost: thirty scans of at most this many characters.
  const opening = text.slice(0, sampledCharacters);
  const counts = new Map<string, number>();
  for (const [name, pattern] of letterPatterns) counts.set(name, opening.match(pattern)?.length ?? 0);
  const kana = (counts.get('Hiragana') ?? 0) + (counts.get('Katakana') ?? 0);
  if (kana > 0) {
    counts.set('Japanese', kana + (counts.get('Han') ?? 0));
    for (const name of ['Han', 'Hiragana', 'Katakana']) counts.delete(name);
  }
  counts.set('Latin', (counts.get('Latin') ?? 0) / 3);
  let dominant = 'none';
  let most = 0;
  for (const [name, count] of counts) {
    if (count > most) {
      most = count;
      dominant = name;
    }
  }
  return dominant;
}
