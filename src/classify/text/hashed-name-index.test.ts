import { describe, expect, it } from 'vitest';
import { HashedNameIndex } from './hashed-name-index.js';

describe('HashedNameIndex', () => {
  const names = Array.from({ length: 5000 }, (_, index) => (index % 3 === 0 ? `w:word${index}` : index % 3 === 1 ? `tg:방법${index}` : `b:${index}_édition`));
  const index = new HashedNameIndex(names);

  it('finds every name at its row, as a Map would', () => {
    names.forEach((name, row) => expect(index.get(name)).toBe(row));
    expect(index.size).toBe(5000);
  });

  it('finds nothing for names it was not given', () => {
    for (let probe = 0; probe < 5000; probe += 1) expect(index.get(`w:other${probe}`)).toBeUndefined();
    expect(index.get('')).toBeUndefined();
  });

  it('gives a name listed twice its last row, as a Map built from the list would', () => {
    const twice = new HashedNameIndex(['a', 'b', 'a']);
    expect(twice.get('a')).toBe(2);
    expect(twice.get('b')).toBe(1);
  });
});
