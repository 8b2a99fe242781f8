import { describe, expect, it } from 'vitest';
import { policyDocumentSchema } from './policy-document.js';

describe('policyDocumentSchema', () => {
  it('accepts a document written before the tool routing mode joined the policy', () => {
    const old = {
      version: 1,
      revision: 3,
      models: { 'a/x': { enabled: false, updatedAt: 't' } },
      audit: [{ at: 't', model: 'a/x', enabled: false, by: 'cli', revision: 3 }],
    };
    expect(policyDocumentSchema.parse(old)).toEqual(old);
  });

  it('accepts the mode and its audit entry, and refuses a mode that does not exist', () => {
    const document = {
      version: 1,
      revision: 1,
      models: {},
      toolRouting: { mode: 'off', updatedAt: 't' },
      audit: [{ at: 't', toolRoutingMode: 'off', by: 'admin-api', revision: 1 }],
    };
    expect(policyDocumentSchema.parse(document)).toEqual(document);
    expect(policyDocumentSchema.safeParse({ ...document, toolRouting: { mode: 'sideways', updatedAt: 't' } }).success).toBe(false);
    expect(policyDocumentSchema.safeParse({ ...document, audit: [{ at: 't', toolRoutingMode: 'sideways', by: 'x', revision: 1 }] }).success).toBe(false);
  });
});
