import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countTokens, encodedLength } from './o200k.js';

const file = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/**
 * A deterministic mix of scripts, emoji, digits, punctuation and whitespace runs (edge cases of the merge). No
 * U+FEFF: gpt-tokenizer drops a byte-order mark before its rank lookups, where the byte-exact count differs.
 */
function mixedText(seed: number, length: number): string {
  const alphabet = ['a', 'Z', 'é', 'ß', 'ж', '中', '文', 'ا', 'ह', '😀', '👩‍💻', '0', '7', ' ', '  ', '\n', '\t', '{', '"', '}', ',', ':', "'s", '’', '\u00a0', '\r\n'];
  let state = seed;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    text += alphabet[state % alphabet.length];
  }
  return text;
}

describe('o200k token counts', () => {
  const samples: [string, string][] = [
    ['Hermes tool schemas', file('test/fixtures/hermes/tools.cli.json')],
    ['a Hermes first turn', file('test/fixtures/hermes/turn-1.json')],
    ['tool-routing training text', file('data/tool-routing/train.txt')],
    ['tool-routing dev cases', file('data/tool-routing/cases.dev.jsonl')],
    ['minified JSON', JSON.stringify(JSON.parse(file('test/fixtures/hermes/tools.cli.json')))],
    ['long runs', `${' '.repeat(300)}x${'-'.repeat(500)}\n\n\n${'9'.repeat(40)}`],
    ...Array.from({ length: 20 }, (_, index): [string, string] => [`mixed text ${index}`, mixedText(index + 1, 400)]),
  ];

  it.each(samples)('equal gpt-tokenizer on %s', (_name, text) => {
    const expected = encode(text).length;
    expect(encodedLength(text)).toBe(expected);
    expect(countTokens(text)).toBe(expected);
  });

  it('count nothing in an empty text, and refuse special-token text as gpt-tokenizer does', () => {
    expect(countTokens('')).toBe(0);
    expect(() => encode('before <|endoftext|> after')).toThrow(/Disallowed special token/);
    expect(() => countTokens('before <|endoftext|> after')).toThrow(/Disallowed special token/);
  });
});
