import { describe, expect, it } from 'vitest';
import { tokenize } from '../text/tokens.js';
import { cosine, sentenceVector, wordVectorTable } from './word-vectors.js';

const meaning = (text: string) => sentenceVector(tokenize(text).words);

describe('word vectors', () => {
  it('loads a table of unit rows whose weights favour content words', () => {
    const table = wordVectorTable();
    expect(table.rows.size).toBeGreaterThan(20_000);
    const invoice = table.rows.get('invoice')!;
    let norm = 0;
    for (let column = 0; column < table.dimensions; column += 1) norm += table.vectors[invoice.row * table.dimensions + column]! ** 2;
    expect(norm).toBeCloseTo(1, 4);
    expect(table.rows.get('the')!.weight).toBeLessThan(0.1);
    expect(invoice.weight).toBeGreaterThan(0.9);
  });

  it('puts sentences about the same thing closer than sentences about different things, with no shared word', () => {
    const billing = meaning('my invoice shows the wrong amount');
    expect(cosine(billing.vector, meaning('the receipt lists an incorrect price').vector)).toBeGreaterThan(cosine(billing.vector, meaning('I have a rash and a fever').vector) + 0.2);
  });

  it('reports how much of the text it covers, and a zero vector when it knows no word', () => {
    expect(meaning('invoice').coverage).toBe(1);
    const unknown = meaning('zxqvbnmw kkjjhhgg');
    expect(unknown.coverage).toBe(0);
    expect(unknown.vector.every((value) => value === 0)).toBe(true);
    expect(meaning('invoice zxqvbnmw').coverage).toBeLessThan(1);
  });
});
