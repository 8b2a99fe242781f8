import { describe, expect, it } from 'vitest';
import { buildNeighbourTable } from '../classify/toolsets/neighbour-index-build.js';
import { NeighbourIndex } from '../classify/toolsets/neighbour-index.js';
import { neighbourTerms } from '../classify/toolsets/neighbour-terms.js';
import { toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';

const cliTools = hermesTools('cli');
const text = "what's the weather in Lisbon tomorrow?";

/** An index whose nearest messages to `text` all needed `toolsets`: the vote is theirs alone. */
function votingFor(toolsets: string[]): NeighbourIndex {
  const documents = [text, 'the weather in Lisbon tomorrow', 'Lisbon weather'].map((message) => ({ terms: neighbourTerms(message), toolsets }));
  return new NeighbourIndex(buildNeighbourTable(documents, ['cronjob', 'tts', 'web'], { maximumDocumentShare: 1, source: 'test' }));
}

function decide(neighbours: NeighbourIndex | null, thresholds: Record<string, number> = {}) {
  const config = toolRoutingConfigSchema.parse({ thresholds });
  return decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn(text), config, neighbours });
}

describe('the neighbour vote on a first turn', () => {
  it('loads a cheap toolset the nearest messages needed, after the budget and under its own rule', () => {
    const without = decide(null);
    expect(without.surface?.loadedToolsets).toContain('web');
    expect(without.surface?.loadedToolsets).not.toContain('tts');
    const decision = decide(votingFor(['web', 'tts']));
    expect(decision.surface?.loadedToolsets).toContain('tts');
    expect(decision.rules).toContain('neighbours');
  });

  it('does not make a narrow surface a middling one for an expensive toolset', () => {
    // The schedule toolset is ~1,800 tokens: worth it by the vote (1 × 5,000), but it would take the weather surface past
    // 14% of the CLI schema, so it stays out; with a wider narrow share it comes in.
    expect(decide(votingFor(['cronjob'])).surface?.loadedToolsets).not.toContain('cronjob');
    expect(decide(votingFor(['cronjob']), { neighbour_narrow_share: 0.3 }).surface?.loadedToolsets).toContain('cronjob');
  });

  it('weighs the vote against the tokens, and is off at a vote bar of 1', () => {
    expect(decide(votingFor(['tts']), { neighbour_miss_cost_tokens: 100 }).surface?.loadedToolsets).not.toContain('tts');
    expect(decide(votingFor(['tts']), { neighbour_vote: 1 }).surface?.loadedToolsets).not.toContain('tts');
  });
});
