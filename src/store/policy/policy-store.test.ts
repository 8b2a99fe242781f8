import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FilePolicyStore } from './file-policy-store.js';
import { MemoryPolicyStore } from './memory-policy-store.js';
import { describePolicyStoreContract } from './policy-store.contract.js';

describePolicyStoreContract('memory', () => {
  const store = new MemoryPolicyStore();
  return { store, reopen: () => store };
});

describePolicyStoreContract('file', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'policy-store-')), 'model-policy.json');
  return { store: new FilePolicyStore(path), reopen: () => new FilePolicyStore(path) };
});

describe('FilePolicyStore', () => {
  it('leaves no temp files behind and writes readable JSON', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'policy-store-'));
    const store = new FilePolicyStore(join(directory, 'model-policy.json'));
    await store.save({ version: 1, revision: 1, models: { 'a/x': { enabled: false, updatedAt: 't' } } }, 0);
    expect(readdirSync(directory)).toEqual(['model-policy.json']);
  });

  it('names the file and the fix when it is corrupt, instead of silently switching everything on', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'policy-store-')), 'model-policy.json');
    writeFileSync(path, '{"version":1,');
    expect(() => new FilePolicyStore(path).loadSync()).toThrow(/model-policy.json is not valid JSON.*fix or delete it/);
  });

  it('sees a change another process saved (a conflict, not an overwrite)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'policy-store-')), 'model-policy.json');
    const gateway = new FilePolicyStore(path);
    const cli = new FilePolicyStore(path);
    await cli.save({ version: 1, revision: 1, models: {} }, 0);
    await expect(gateway.save({ version: 1, revision: 1, models: {} }, 0)).rejects.toThrow(/revision 1, expected 0/);
  });
});
