import { describe, expect, it } from 'vitest';
import { buildNeighbourTable } from '../classify/toolsets/neighbour-index-build.js';
import { NeighbourIndex } from '../classify/toolsets/neighbour-index.js';
import { neighbourTerms } from '../classify/toolsets/neighbour-terms.js';
import { toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import { toolRoutingContext } from './routing-context.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';

const cliTools = hermesTools('cli');
const text = "what's the weather in Lisbon tomorrow?";

/** An index whose nearest messages to `text` all needed `toolsets`: the vote is theirs alone. */
function votingFor(toolsets: string[]): NeighbourIndex {
  const documents = [text, 'the weather in Lisbon tomorrow', 'Lisbon weather'].map((message) => ({ terms: neighbourTerms(message), toolsets }));
  return new NeighbourIndex(buildNeighbourTable(documents, ['cronjob', 'discord', 'tts', 'web'], { maximumDocumentShare: 1, source: 'test' }));
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

describe('the neighbour vote and toolsets loaded together', () => {
  const fullTools = hermesTools('full');
  const config = (thresholds: Record<string, number>) => toolRoutingConfigSchema.parse({ thresholds });
  const context = toolRoutingContext(fullTools, 'openai-chat', config({}));
  if (typeof context === 'string') throw new Error(context);
  const tokens = (toolset: string): number => context.toolsetTokens.get(toolset)!;
  const decideFull = (neighbours: NeighbourIndex | null, thresholds: Record<string, number> = {}) =>
    decideFirstTurnSurface({ tools: fullTools, format: 'openai-chat', messages: userTurn(text), config: config(thresholds), neighbours });
  const voted = votingFor(['discord']);

  it('brings a voted toolset\'s companions and counts them against the narrow share', () => {
    const without = decideFull(null);
    expect(without.surface?.loadedToolsets).not.toContain('discord');
    const used = without.surface!.loadedToolsets.reduce((sum, toolset) => sum + tokens(toolset), context.requestToolsetTokens);
    const wide = decideFull(voted, { neighbour_narrow_share: 0.5 });
    expect(wide.surface?.loadedToolsets).toEqual(expect.arrayContaining(['discord', 'discord_admin']));
    // Room for the channels' toolset alone but not for it with its admin half: neither comes.
    const roomForOne = (used + tokens('discord') + tokens('discord_admin') / 2) / context.totalTokens;
    const tight = decideFull(voted, { neighbour_narrow_share: roomForOne, neighbour_broad_share: 0.9 });
    expect(tight.surface?.loadedToolsets).toEqual(without.surface?.loadedToolsets);
  });
});
