import { describe, expect, it } from 'vitest';
import { MemoryResponseStore } from './memory-response-store.js';

const stored = (text: string) => ({ response: { id: 'resp_1', output_text: text }, inputItems: [{ type: 'message', role: 'user', content: text }] });

describe('MemoryResponseStore', () => {
  it('keeps a response until its TTL, then forgets it', async () => {
    let now = 1_000;
    const store = new MemoryResponseStore(1_000_000, () => now);
    await store.set('resp_1', stored('hi'), 100);
    expect((await store.get('resp_1'))?.response.output_text).toBe('hi');
    now += 100;
    expect(await store.get('resp_1')).toBeUndefined();
  });

  it('deletes, and says whether there was anything to delete', async () => {
    const store = new MemoryResponseStore(1_000_000);
    await store.set('resp_1', stored('hi'), 60_000);
    expect(await store.delete('resp_1')).toBe(true);
    expect(await store.delete('resp_1')).toBe(false);
    expect(await store.get('resp_1')).toBeUndefined();
  });

  it('evicts the least recently used entries beyond its size bound', async () => {
    const one = JSON.stringify(stored('a')).length;
    const store = new MemoryResponseStore(one * 2);
    await store.set('a', stored('a'), 60_000);
    await store.set('b', stored('b'), 60_000);
    await store.get('a');
    await store.set('c', stored('c'), 60_000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBeDefined();
    expect(await store.get('c')).toBeDefined();
  });
});
