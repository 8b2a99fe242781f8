import { describe, expect, it } from 'vitest';
import type { MultilabelModel } from '../classify/linear/multilabel-model.js';
import { toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';
import { hermesStubModel } from './test-support/stub-model.js';

// "branch" is one of the terminal rule's words (rules.ts); the message asks for the web.
const text = 'look up which branch of the library is open late on sundays';

/** A model with no features: sure of the web, and of the terminal exactly `terminal` whatever the message says. */
function model(terminal: number): MultilabelModel {
  return hermesStubModel({ web: 0.95, terminal });
}

function decide(terminal: number, thresholds: Record<string, unknown> = {}, tools: readonly unknown[] = hermesTools('cli'), message = text) {
  const config = toolRoutingConfigSchema.parse({ thresholds });
  return decideFirstTurnSurface({ tools, format: 'openai-chat', messages: userTurn(message), config, model: model(terminal), neighbours: null });
}

describe('rule support on a first turn', () => {
  it('leaves out the toolset a rule word names when the model is sure it is not wanted', () => {
    const decision = decide(0.0002);
    expect(decision.rules).toContain('terminal-words');
    expect(decision.surface?.loadedToolsets).toContain('web');
    expect(decision.surface?.loadedToolsets).not.toContain('terminal');
    // Without a support bar the word alone loads it, as before.
    expect(decide(0.0002, { rule_support: {} }).surface?.loadedToolsets).toContain('terminal');
  });

  it('lets the word select once the model gives the toolset the bar, though the model alone would not', () => {
    // 0.004 × 150,000 tokens of miss cost is under the terminal schema (~1,500 tokens): the model's bar is not met.
    expect(decide(0.004, { rule_support: { terminal: 1 } }).surface?.loadedToolsets).not.toContain('terminal');
    expect(decide(0.004).surface?.loadedToolsets).toContain('terminal');
  });

  it('asks no support for a rule whose words have one sense: running a named script', () => {
    const decision = decide(0.0002, {}, hermesTools('cli'), "never mind the other benchmarks, just execute bench_parse.py");
    expect(decision.rules).toContain('run-named-script');
    expect(decision.surface?.loadedToolsets).toContain('terminal');
  });

  it('asks for no support on a small tools array, where every word counts', () => {
    const small = hermesTools('cli').filter((tool) => ['terminal', 'process', 'web_search', 'web_extract', 'todo'].includes((tool as { function: { name: string } }).function.name));
    const decision = decide(0.0002, {}, small);
    expect(decision.outcome).toBe('narrowed');
    expect(decision.surface?.loadedToolsets).toEqual(['terminal', 'web']);
  });
});
