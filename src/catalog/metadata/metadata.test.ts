import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../pipeline/load-config.js';
import { ModelCatalog } from '../model-catalog.js';
import { knownModelMetadata } from './known-models.js';
import { metadataFromName } from './name-patterns.js';

describe('name patterns', () => {
  it('guesses a tier from size words and parameter counts', () => {
    expect(metadataFromName('llama-3.1-8b-instruct').tier).toBe(5);
    expect(metadataFromName('qwen2.5-72b-instruct').tier).toBe(3);
    expect(metadataFromName('mixtral-8x22b').tier).toBe(3);
    expect(metadataFromName('mixtral-8x7b').tier).toBe(4);
    expect(metadataFromName('some-model-nano').tier).toBe(4);
    expect(metadataFromName('some-model-pro').tier).toBe(2);
  });

  it('only claims a capability the name states outright', () => {
    expect(metadataFromName('qwen2.5-vl-7b').supportsVision).toBe(true);
    expect(metadataFromName('nomic-embed-text')).toMatchObject({ embeddings: true, supportsTools: false });
    expect(metadataFromName('my-model').supportsTools).toBeUndefined();
  });
});

describe('bundled families', () => {
  it('picks the narrowest match first and ignores a vendor prefix', () => {
    expect(knownModelMetadata('gpt-4.1-nano')?.tier).toBe(4);
    expect(knownModelMetadata('gpt-4.1')?.tier).toBe(2);
    expect(knownModelMetadata('openai/gpt-4o-mini')?.tier).toBe(3);
    expect(knownModelMetadata('gemini-2.5-flash-lite')?.tier).toBe(4);
    expect(knownModelMetadata('unknown-thing')).toBeUndefined();
  });
});

describe('ModelCatalog metadata layers', () => {
  const config = parseConfig(
    {
      providers: [
        { id: 'openai', kind: 'openai', api_key: 'k', models: ['gpt-4o-mini', { id: 'gpt-4o', tier: 1, context_window: 1_000 }] },
        { id: 'local', kind: 'ollama', base_url: 'http://127.0.0.1:11434/v1', models: ['mystery-7b'] },
      ],
    },
    'test',
  );

  it('config beats probe beats bundled beats name pattern, field by field', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    const catalog = new ModelCatalog(config, {
      now,
      probeTtlMs: 86_400_000,
      probes: {
        version: 1,
        probes: {
          'openai/gpt-4o-mini': { supportsVision: false, probedAt: '2026-01-01T12:00:00Z' },
          'local/mystery-7b': { supportsTools: true, probedAt: '2025-01-01T00:00:00Z' },
        },
      },
    });
    const mini = catalog.find('openai', 'gpt-4o-mini');
    expect(mini).toMatchObject({ supportsVision: false, supportsTools: true, contextWindow: 128_000 });
    expect(mini?.sources).toMatchObject({ supportsVision: 'probe', supportsTools: 'bundled', contextWindow: 'bundled', tier: 'bundled' });
    expect(catalog.find('openai', 'gpt-4o')).toMatchObject({ tier: 1, contextWindow: 1_000, sources: expect.objectContaining({ tier: 'config', contextWindow: 'config' }) });
    // The probe for mystery-7b is a year old: past its TTL, so tools stay unknown.
    const mystery = catalog.find('local', 'mystery-7b');
    expect(mystery?.supportsTools).toBeUndefined();
    expect(mystery).toMatchObject({ tier: 5, prices: { input: 0, output: 0 }, sources: expect.objectContaining({ tier: 'pattern' }) });
  });
});
