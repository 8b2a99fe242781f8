import { describe, expect, it } from 'vitest';
import type { LlmClassifierSettings } from '../classify/toolsets/llm-classifier.js';
import { toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurfaceWithLlm, llmClassifierSettings } from './decide-with-llm.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';

// Thresholds no score can reach, and "needs a tool" always true: the local classifier always abstains here.
const config = toolRoutingConfigSchema.parse({ thresholds: { default: 1, critical: 1, miss_cost_tokens: 0, abstain_when_task: 0 }, llm_classifier: { min_confidence: 0.7 } });
const tools = hermesTools('cli');

function settingsAnswering(content: string | (() => Promise<Response>), seen: unknown[] = []): LlmClassifierSettings {
  return {
    baseUrl: 'http://classifier.test/v1/',
    model: 'tiny',
    timeoutMs: 200,
    disableThinking: true,
    extraBody: { top_k: 1 },
    fetch: async (_url, init) => {
      seen.push(JSON.parse(String(init?.body)));
      if (typeof content !== 'string') return content();
      return new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status: 200 });
    },
  };
}

describe('decideFirstTurnSurfaceWithLlm', () => {
  it('narrows to the LLM answer when the local classifier abstains and the answer is confident', async () => {
    const seen: unknown[] = [];
    const decision = await decideFirstTurnSurfaceWithLlm({ tools, format: 'openai-chat', messages: userTurn('sort out the thing from earlier'), config }, settingsAnswering('```json\n{"toolsets":["web"],"confidence":0.9}\n```', seen));
    expect(decision).toMatchObject({ outcome: 'narrowed', reason: 'llm_classified', predictedToolsets: ['web'], confidence: 0.9 });
    expect(JSON.stringify(decision.tools)).toContain('web_search');
    expect(seen[0]).toMatchObject({ model: 'tiny', chat_template_kwargs: { enable_thinking: false }, top_k: 1 });
  });

  it('keeps the full surface on unknown names, low confidence, malformed answers, errors and timeouts', async () => {
    const input = { tools, format: 'openai-chat' as const, messages: userTurn('sort out the thing from earlier'), config };
    const answers = [
      settingsAnswering('{"toolsets":["kanban"],"confidence":0.95}'),
      settingsAnswering('{"toolsets":["web"],"confidence":0.5}'),
      settingsAnswering('I think web'),
      settingsAnswering(async () => new Response('nope', { status: 500 })),
      settingsAnswering(() => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('timeout')), 10))),
    ];
    for (const settings of answers) {
      const decision = await decideFirstTurnSurfaceWithLlm(input, settings);
      expect(decision.outcome).toBe('full');
      expect(decision.reason).toBe('abstain');
      expect(decision.tools).toBe(tools);
    }
  });

  it('is never called when the local classifier decided, or when the section is off', async () => {
    const seen: unknown[] = [];
    const confident = await decideFirstTurnSurfaceWithLlm({ tools, format: 'openai-chat', messages: userTurn('run the tests'), config: toolRoutingConfigSchema.parse({}) }, settingsAnswering('{"toolsets":[],"confidence":1}', seen));
    expect(confident.reason).toBe('classified');
    expect(seen).toHaveLength(0);
    expect(llmClassifierSettings(toolRoutingConfigSchema.parse({}), {})).toBeUndefined();
    const enabled = toolRoutingConfigSchema.parse({ llm_classifier: { enabled: true, base_url: 'http://x.test/v1', model: 'm', api_key_env: 'KEY' } });
    expect(llmClassifierSettings(enabled, { KEY: 'secret' })).toMatchObject({ baseUrl: 'http://x.test/v1', model: 'm', apiKey: 'secret', timeoutMs: 1500 });
  });
});
