import { describe, expect, it } from 'vitest';
import { fnv1a } from '../classify/features/hash.js';
import type { MultilabelModel } from '../classify/linear/multilabel-model.js';
import { toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';
import { hermesStubModel } from './test-support/stub-model.js';

const bits = 12;
const text = 'please look up the opening hours and the ticket prices of every museum and gallery in the old town for the coming long weekend, with the closing days, and while you are on it feed the zebra';

/**
 * A model sure of the web for any message and of nothing else, but for one word, "zebra", that asks for `toolset`: the
 * whole message dilutes it (every feature weighs 1/√n), a window of six words gives it between 0.8 and the window bar of 0.9.
 */
function zebraModel(toolset: string): MultilabelModel {
  const zebra = fnv1a('w:zebra') & ((1 << bits) - 1);
  return hermesStubModel({ web: 0.9 }, { [zebra]: { [toolset]: 55 } }, bits);
}

function decide(toolset: string, thresholds: Record<string, number> = {}) {
  const config = toolRoutingConfigSchema.parse({ thresholds });
  return decideFirstTurnSurface({ tools: hermesTools('cli'), format: 'openai-chat', messages: userTurn(text), config, model: zebraModel(toolset), neighbours: null });
}

describe('the part vote on a first turn', () => {
  it('loads a cheap toolset one window asks for under the bar that selects, after the budget and under its own rule', () => {
    const off = decide('tts', { part_vote: 1 });
    expect(off.surface?.loadedToolsets).toContain('web');
    expect(off.surface?.loadedToolsets).not.toContain('tts');
    const on = decide('tts');
    expect(on.surface?.loadedToolsets).toEqual([...(off.surface?.loadedToolsets ?? []), 'tts'].sort());
    expect(on.rules).toContain('parts');
    expect(on.rules).not.toContain('window-need');
  });

  it('weighs the part against the toolset\'s tokens and keeps a narrow surface narrow', () => {
    // 0.9 × 100 tokens of miss cost is less than the text-to-speech schema (~200 tokens).
    expect(decide('tts', { part_miss_cost_tokens: 100 }).surface?.loadedToolsets).not.toContain('tts');
    // The schedule toolset (~1,700 tokens) is worth it by the part (at least 0.8 × 3,000) but would take the web surface past
    // 14% of the CLI schema; with a wider narrow share it comes in.
    expect(decide('cronjob').surface?.loadedToolsets).not.toContain('cronjob');
    expect(decide('cronjob', { neighbour_narrow_share: 0.3 }).surface?.loadedToolsets).toContain('cronjob');
  });
});
