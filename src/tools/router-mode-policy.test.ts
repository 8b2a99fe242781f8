import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelSwitches } from '../models/switches/model-switches.js';
import { FilePolicyStore } from '../store/policy/file-policy-store.js';
import { MemoryPolicyStore } from '../store/policy/memory-policy-store.js';
import { emptyPolicyDocument } from '../store/policy/policy-document.js';
import type { ToolRoutingMode } from './config.js';
import { readRouterMode, routerModeFilePath } from './router-mode-file.js';
import { followRouterMode, saveRouterMode, startingRouterMode } from './router-mode-policy.js';

function dataDirWithLegacyMode(mode?: ToolRoutingMode): string {
  const directory = mkdtempSync(join(tmpdir(), 'router-mode-'));
  if (mode) writeFileSync(routerModeFilePath(directory), JSON.stringify({ mode, updated_at: 't' }));
  return directory;
}

describe('the tool routing mode in the policy', () => {
  it('starts from the policy, else the legacy tool-routing-mode.json, else the config', async () => {
    const legacy = dataDirWithLegacyMode('shadow');
    const policy = new ModelSwitches(new MemoryPolicyStore(), emptyPolicyDocument());
    expect(startingRouterMode(policy, dataDirWithLegacyMode(), 'on')).toBe('on');
    expect(startingRouterMode(policy, legacy, 'on')).toBe('shadow');
    await saveRouterMode(policy, 'off', 'test');
    expect(startingRouterMode(policy, legacy, 'on')).toBe('off');
  });

  it('saves with the switches\' revision and audit, so neither kind of change loses the other', async () => {
    const store = new MemoryPolicyStore();
    const policy = new ModelSwitches(store, emptyPolicyDocument());
    await Promise.all([
      policy.set({ provider: 'a', model: 'x', enabled: false }, undefined, 'cli'),
      saveRouterMode(policy, 'off', 'admin-api'),
      policy.set({ provider: 'a', model: 'y', enabled: false }, undefined, 'cli'),
    ]);
    const saved = await store.load();
    expect(saved.revision).toBe(3);
    expect(saved.toolRouting?.mode).toBe('off');
    expect(Object.keys(saved.models).sort()).toEqual(['a/x', 'a/y']);
    expect(saved.audit?.[1]).toMatchObject({ toolRoutingMode: 'off', by: 'admin-api', revision: 2 });
  });

  it('retries a plain switch that lost a race, but not one made against an expected revision', async () => {
    const store = new MemoryPolicyStore();
    const stale = new ModelSwitches(store, emptyPolicyDocument());
    const other = new ModelSwitches(store, emptyPolicyDocument());
    await other.set({ provider: 'a', model: 'x', enabled: false });
    await expect(saveRouterMode(stale, 'off', 'test', 0)).rejects.toThrow(/revision 1, expected 0/);
    await other.set({ provider: 'a', model: 'y', enabled: false });
    expect(await saveRouterMode(stale, 'shadow', 'test')).toEqual({ mode: 'shadow', revision: 3 });
    expect((await store.load()).models['a/y']?.enabled).toBe(false);
  });

  it('applies a mode another writer saved when the policy is reloaded, and only when it changed', async () => {
    const store = new MemoryPolicyStore();
    const here = new ModelSwitches(store, emptyPolicyDocument());
    const elsewhere = new ModelSwitches(store, emptyPolicyDocument());
    const applied: ToolRoutingMode[] = [];
    followRouterMode(here, (mode) => applied.push(mode));
    await saveRouterMode(elsewhere, 'off', 'elsewhere');
    expect(applied).toEqual([]);
    await here.reload();
    expect(applied).toEqual(['off']);
    await elsewhere.set({ provider: 'a', model: 'x', enabled: false });
    await here.reload();
    expect(applied).toEqual(['off']);
    await saveRouterMode(here, 'on', 'here');
    expect(applied).toEqual(['off', 'on']);
  });

  it('a failed save applies nothing', async () => {
    const failing = new ModelSwitches(
      { specificationVersion: 'v1', location: 'broken', load: () => Promise.resolve(emptyPolicyDocument()), save: () => Promise.reject(new Error('disk full')) },
      emptyPolicyDocument(),
    );
    const applied: ToolRoutingMode[] = [];
    followRouterMode(failing, (mode) => applied.push(mode));
    await expect(saveRouterMode(failing, 'off', 'test')).rejects.toThrow('disk full');
    expect(applied).toEqual([]);
    expect(failing.current.toolRouting).toBeUndefined();
  });

  it('readRouterMode: the policy file of a data directory, else the legacy file', async () => {
    const directory = dataDirWithLegacyMode('shadow');
    expect(readRouterMode(directory)).toBe('shadow');
    const store = new FilePolicyStore(join(directory, 'model-policy.json'));
    await saveRouterMode(new ModelSwitches(store, store.loadSync()), 'off', 'test');
    expect(readRouterMode(directory)).toBe('off');
  });
});
