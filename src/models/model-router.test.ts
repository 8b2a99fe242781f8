import { describe, expect, it } from 'vitest';
import { ModelCatalog } from '../catalog/model-catalog.js';
import { parseConfig } from '../pipeline/load-config.js';
import type { Turn } from '../core/turn.js';
import { ModelRouter } from './model-router.js';

const config = parseConfig(
  {
    providers: [{ id: 'p', kind: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', models: [{ id: 'a', tier: 4 }, { id: 'b', tier: 1 }] }],
  },
  'test',
);

const turn: Turn = {
  requestId: 'r',
  receivedAt: 0,
  format: 'openai-chat',
  body: {},
  requestedModel: 'hermes-router',
  stream: false,
  messages: [{ role: 'user', text: 'hi', toolCallNames: [], hasImage: false }],
  tools: [],
  hasImages: false,
  estimatedInputTokens: 10,
  hints: {},
};

describe('ModelRouter', () => {
  it('fails open when a policy throws: the order is kept and the reason recorded', () => {
    const router = new ModelRouter({ catalog: new ModelCatalog(config), config: config.routing, switches: { isEnabled: () => true, revision: 0 } });
    router.setDifficultyEstimator({
      name: 'broken',
      estimate: () => {
        throw new Error('weights missing');
      },
    });
    const { candidates, decision } = router.route(turn, undefined);
    expect(candidates.map((candidate) => candidate.deployment.modelId)).toEqual(['a', 'b']);
    expect(decision.steps?.[0]).toEqual({ policy: 'cheapest-capable', reason: 'failed (weights missing); order kept' });
  });
});
