import { describe, expect, it } from 'vitest';
import { parseConfig } from '../pipeline/load-config.js';
import { ModelCatalog } from './model-catalog.js';

const config = parseConfig(
  {
    providers: [
      { id: 'openai', kind: 'openai', api_key: 'k', models: ['gpt-4o-mini'] },
      { id: 'local', kind: 'ollama', base_url: 'http://127.0.0.1:11434/v1', models: ['mystery-7b', { id: 'pinned', supports_tools: false }] },
    ],
  },
  'test',
);
const probedAt = '2026-01-01T12:00:00Z';
const now = Date.parse('2026-01-02T00:00:00Z');

describe('ModelCatalog.updateProbes (probe results arriving while the gateway runs)', () => {
  it('updates the deployments the router already holds, in place, and keeps config and bundled values above them', () => {
    const catalog = new ModelCatalog(config, {
      now,
      probeTtlMs: 86_400_000,
      probes: { version: 1, probes: { 'local/mystery-7b': { supportsVision: true, probedAt } } },
    });
    const mystery = catalog.find('local', 'mystery-7b');
    const chat = catalog.chatDeployments();
    expect(mystery).toMatchObject({ supportsVision: true, sources: expect.objectContaining({ supportsVision: 'probe' }) });

    catalog.updateProbes(
      {
        version: 1,
        probes: {
          // The new run judged tools only: vision is no longer known from a probe, so it is unknown again.
          'local/mystery-7b': { supportsTools: true, probedAt },
          'local/pinned': { supportsTools: true, probedAt },
          'openai/gpt-4o-mini': { supportsVision: false, probedAt },
        },
      },
      now,
    );
    expect(catalog.find('local', 'mystery-7b')).toBe(mystery);
    expect(catalog.chatDeployments()).toEqual(chat);
    expect(mystery?.supportsTools).toBe(true);
    expect(mystery?.supportsVision).toBeUndefined();
    expect(mystery?.sources).toMatchObject({ supportsTools: 'probe', tier: 'pattern' });
    expect(mystery?.sources?.supportsVision).toBeUndefined();
    // The config said no tools: a probe never overrides it.
    expect(catalog.find('local', 'pinned')).toMatchObject({ supportsTools: false, sources: expect.objectContaining({ supportsTools: 'config' }) });
    // A probe overrides bundled data, field by field.
    expect(catalog.find('openai', 'gpt-4o-mini')).toMatchObject({ supportsVision: false, supportsTools: true, contextWindow: 128_000 });
  });

  it('judges freshness again at update time: an expired result is ignored', () => {
    const catalog = new ModelCatalog(config, { now, probeTtlMs: 86_400_000 });
    catalog.updateProbes({ version: 1, probes: { 'local/mystery-7b': { supportsTools: true, probedAt } } }, now + 2 * 86_400_000);
    expect(catalog.find('local', 'mystery-7b')?.supportsTools).toBeUndefined();
  });
});
