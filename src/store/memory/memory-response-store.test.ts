import { describe, expect, it } from 'vitest';
import { describeResponseStoreContract } from '../response-store.contract.js';
import { MemoryResponseStore } from './memory-response-store.js';

describeResponseStoreContract('memory', async () => new MemoryResponseStore(1_000_000));

const stored = (text: string) => ({ response: { id: 'resp_1', output_text: text }, inputItems: [{ type: 'message', role: 'user', content: text }] });

describe('MemoryResponseStore', () => {
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
