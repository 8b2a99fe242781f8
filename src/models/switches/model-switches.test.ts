import { describe, expect, it } from 'vitest';
import { MemoryPolicyStore } from '../../store/policy/memory-policy-store.js';
import type { PolicyDocument } from '../../store/policy/policy-document.js';
import { emptyPolicyDocument } from '../../store/policy/policy-document.js';
import type { PolicyStore } from '../../store/policy/policy-store.js';
import { ModelSwitches } from './model-switches.js';

describe('ModelSwitches', () => {
  it('defaults to on and applies a change once saved', async () => {
    const switches = new ModelSwitches(new MemoryPolicyStore(), emptyPolicyDocument());
    expect(switches.isEnabled({ qualifiedName: 'a/x' })).toBe(true);
    expect(await switches.set({ provider: 'a', model: 'x', enabled: false })).toEqual({ provider: 'a', model: 'x', enabled: false, revision: 1 });
    expect(switches.isEnabled({ qualifiedName: 'a/x' })).toBe(false);
    expect(switches.isEnabled({ qualifiedName: 'b/x' })).toBe(true);
  });

  it('a failed save leaves the running policy unchanged', async () => {
    const failing: PolicyStore = {
      specificationVersion: 'v1',
      location: 'broken',
      load: () => Promise.resolve(emptyPolicyDocument()),
      save: () => Promise.reject(new Error('disk full')),
    };
    const switches = new ModelSwitches(failing, emptyPolicyDocument());
    await expect(switches.set({ provider: 'a', model: 'x', enabled: false })).rejects.toThrow('disk full');
    expect(switches.isEnabled({ qualifiedName: 'a/x' })).toBe(true);
    expect(switches.revision).toBe(0);
  });

  it('serialises concurrent changes so none is lost', async () => {
    const store = new MemoryPolicyStore();
    const switches = new ModelSwitches(store, emptyPolicyDocument());
    await Promise.all(['x', 'y', 'z'].map((model) => switches.set({ provider: 'a', model, enabled: false })));
    const saved: PolicyDocument = await store.load();
    expect(saved.revision).toBe(3);
    expect(Object.keys(saved.models).sort()).toEqual(['a/x', 'a/y', 'a/z']);
  });

  it('rejects a stale expected revision', async () => {
    const switches = new ModelSwitches(new MemoryPolicyStore(), emptyPolicyDocument());
    await switches.set({ provider: 'a', model: 'x', enabled: false });
    await expect(switches.set({ provider: 'a', model: 'x', enabled: true }, 0)).rejects.toThrow(/revision 1, expected 0/);
    expect(switches.isEnabled({ qualifiedName: 'a/x' })).toBe(false);
  });
});
