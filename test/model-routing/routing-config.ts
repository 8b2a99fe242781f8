import type { ConfigInput } from '../../src/config/schema.js';

/**
 * A mixed pool on one fake upstream: a cheap weak model, a mid one with vision, a strong reasoning one, a model
 * nothing is known about, and an embeddings model. Metadata comes from config so the tests do not depend on the
 * bundled catalogue.
 */
export function mixedConfig(upstreamUrl: string, routing: NonNullable<ConfigInput['routing']> = {}): ConfigInput {
  return {
    providers: [
      {
        id: 'local',
        kind: 'openai-compatible',
        base_url: `${upstreamUrl}/v1`,
        api_keys: ['sk-a', 'sk-b'],
        models: [
          { id: 'cheap-small', tier: 4, prices: { input: 0.1, output: 0.4 }, supports_tools: true, supports_vision: false, context_window: 8_000 },
          { id: 'mid', tier: 3, prices: { input: 0.5, output: 2 }, supports_tools: true, supports_vision: true, context_window: 128_000 },
          { id: 'strong', tier: 1, prices: { input: 5, output: 15 }, supports_tools: true, supports_vision: true, supports_reasoning: true, context_window: 200_000 },
          'mystery-model',
          { id: 'embed-test', embeddings: true },
        ],
      },
    ],
    default_model: 'mid',
    fallbacks: { strong: ['mid'] },
    routing,
    resilience: { cooldown_ms: 1_000, retry_after_cap_ms: 200 },
    timeouts: { connect_ms: 2_000, first_byte_ms: 3_000, idle_ms: 1_500 },
  };
}

export const hardPrompt =
  'Implement a lock-free queue in Rust and debug why this code deadlocks:\n```rust\nfn main() { let x = queue.pop(); }\n```';
export const easyPrompt = 'What year did the Berlin wall fall?';
export const tinyPng =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
export const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
} as const;
