import { describe, expect, it } from 'vitest';
import { type MirroredNamespace, SemanticCacheMirror } from './semantic-cache-mirror.js';

/** A state of `count` entries of 4 float32s (16 bytes each, plus overhead) expiring at `expiresAt`. */
function state(sequence: number, count: number, expiresAt = 1_000): MirroredNamespace {
  return {
    epoch: 'e',
    sequence,
    entries: Array.from({ length: count }, (_, index) => ({
      entry: { vector: new Float32Array(4), answerKey: `k${index}`, storedAt: 0 },
      expiresAt,
      sequence: sequence - index,
    })),
  };
}

describe('SemanticCacheMirror', () => {
  it('replaces a state only if it still holds the one the lookup started from', () => {
    const mirror = new SemanticCacheMirror(1_000_000, () => 0);
    const first = state(1, 1);
    mirror.replace('n', undefined, first);
    expect(mirror.get('n')).toBe(first);
    mirror.replace('n', undefined, state(9, 1));
    expect(mirror.get('n')).toBe(first);
    const second = state(2, 2);
    mirror.replace('n', first, second);
    expect(mirror.get('n')).toBe(second);
    mirror.replace('n', first, undefined);
    expect(mirror.get('n')).toBe(second);
    mirror.replace('n', second, undefined);
    expect(mirror.get('n')).toBeUndefined();
    expect(mirror.heldBytes).toBe(0);
  });

  it('drops the least recently used namespaces past its byte budget, and never holds one larger than it', () => {
    const one = state(1, 3);
    const mirror = new SemanticCacheMirror(2 * 3 * (16 + 4 + 160), () => 0);
    mirror.replace('a', undefined, one);
    mirror.replace('b', undefined, state(1, 3));
    mirror.get('a');
    mirror.replace('c', undefined, state(1, 3));
    expect(mirror.get('b')).toBeUndefined();
    expect(mirror.get('a')).toBe(one);
    expect(mirror.get('c')).toBeDefined();
    expect(mirror.size).toBe(2);
    mirror.replace('huge', undefined, state(1, 7));
    expect(mirror.get('huge')).toBeUndefined();
    expect(mirror.heldBytes).toBeLessThanOrEqual(mirror.budgetBytes);
  });

  it('forgets a namespace once every entry has expired (its Redis keys are gone by then), and never holds one with nothing live', () => {
    let now = 0;
    const mirror = new SemanticCacheMirror(1_000_000, () => now);
    mirror.replace('n', undefined, state(1, 2, 100));
    expect(mirror.get('n')).toBeDefined();
    now = 100;
    expect(mirror.get('n')).toBeUndefined();
    expect(mirror.heldBytes).toBe(0);
    mirror.replace('n', undefined, state(2, 2, 50));
    expect(mirror.get('n')).toBeUndefined();
    mirror.replace('empty', undefined, state(3, 0));
    expect(mirror.size).toBe(0);
  });

  it('drops expired namespaces before live ones when over budget', () => {
    let now = 0;
    const mirror = new SemanticCacheMirror(2 * (16 + 4 + 160), () => now);
    mirror.replace('soon', undefined, state(1, 1, 10));
    mirror.replace('live', undefined, state(1, 1, 1_000));
    mirror.get('soon');
    now = 20;
    mirror.replace('new', undefined, state(1, 1, 1_000));
    expect(mirror.size).toBe(2);
    expect(mirror.get('live')).toBeDefined();
    expect(mirror.get('new')).toBeDefined();
  });
});
