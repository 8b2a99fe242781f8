import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { chat } from './admin-client.js';
import { easyPrompt, mixedConfig } from './routing-config.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness((url) => mixedConfig(url, { difficulty: { estimator: 'learned' } }));
});
afterAll(() => harness.close());

describe('routing.difficulty.estimator: learned', () => {
  it('swaps the heuristic for the trained estimator once it has loaded', async () => {
    let reason = '';
    // The weights load in the background at start; the heuristic answers until then.
    // Until a deadline, not for a count of attempts: a loaded machine loads the weights more slowly.
    const deadline = Date.now() + 45_000;
    for (let attempt = 0; Date.now() < deadline && !reason.includes('learned'); attempt += 1) {
      await chat(harness.gateway.url, { model: 'hermes-router', messages: [{ role: 'user', content: easyPrompt }] }, { 'x-hermes-session-affinity': `l-${attempt}` });
      const records = await harness.observer.waitFor(attempt + 1);
      reason = records.at(-1)?.decision.models?.steps?.find((step) => step.policy === 'cheapest-capable')?.reason ?? '';
      if (!reason.includes('learned')) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(reason).toMatch(/^difficulty [1-5] \(learned: learned p=/);
  });
});
