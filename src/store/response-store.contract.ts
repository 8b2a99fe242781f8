import { describe, expect, it } from 'vitest';
import type { ResponseStore, StoredResponse } from './response-store.js';

const stored = (text: string, clientKeyId?: string): StoredResponse => ({
  response: { id: 'resp_x', object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text }] }] },
  inputItems: [{ id: 'msg_1', type: 'message', role: 'user', content: text }],
  previousResponseId: 'resp_before',
  ...(clientKeyId !== undefined ? { clientKeyId } : {}),
});

/** The contract every stored-responses store passes (memory, Redis). */
export function describeResponseStoreContract(name: string, factory: () => Promise<ResponseStore>): void {
  describe(`ResponseStore contract: ${name}`, () => {
    it('returns what was stored, and nothing for an unknown id', async () => {
      const store = await factory();
      await store.set('resp_1', stored('hello', 'key_a'), 60_000);
      expect(await store.get('resp_1')).toEqual(stored('hello', 'key_a'));
      expect(await store.get('resp_missing')).toBeUndefined();
      await store.close();
    });

    it('forgets a response after its time to live', async () => {
      const store = await factory();
      await store.set('resp_short', stored('soon gone'), 30);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await store.get('resp_short')).toBeUndefined();
      await store.close();
    });

    it('deletes, and says whether there was anything to delete', async () => {
      const store = await factory();
      await store.set('resp_2', stored('bye'), 60_000);
      expect(await store.delete('resp_2')).toBe(true);
      expect(await store.delete('resp_2')).toBe(false);
      expect(await store.get('resp_2')).toBeUndefined();
      await store.close();
    });
  });
}
