import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultilabelModel } from '../classify/linear/multilabel-model.js';
import { requestToolsetName } from './catalog.js';
import { defaultToolRoutingConfig, toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurface, decideResumedSurface } from './decide-surface.js';
import { toolRoutingContext } from './routing-context.js';
import { buildSurface, expandSurface, restoreSurface } from './surface.js';
import { asAnthropicTools, hermesTools, userTurn } from './test-support/fixtures.js';

const config = defaultToolRoutingConfig();
const cliTools = hermesTools('cli');

function namesOf(tools: readonly unknown[]): string[] {
  return tools.map((tool) => (tool as { function?: { name: string }; name?: string }).function?.name ?? (tool as { name: string }).name);
}

describe('decideFirstTurnSurface', () => {
  it('narrows a clear request to its toolsets, in original order, with request_toolset last', () => {
    const decision = decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn('read notes.txt and summarize it'), config });
    expect(decision.outcome).toBe('narrowed');
    expect(decision.reason).toBe('classified');
    expect(decision.predictedToolsets).toContain('file');
    const names = namesOf(decision.tools);
    expect(names.at(-1)).toBe(requestToolsetName);
    expect(names).toContain('read_file');
    expect(names).not.toContain('browser_click');
    const indices = decision.surface!.keptIndices;
    expect([...indices].sort((left, right) => left - right)).toEqual(indices);
    expect(decision.tools.slice(0, -1)).toEqual(indices.map((index) => cliTools[index]));
  });

  it('loads a group of loaded_together toolsets whole when one member is selected', () => {
    const messages = userTurn('make a thread in #help for the outage');
    const grouped = decideFirstTurnSurface({ tools: hermesTools('full'), format: 'openai-chat', messages, config });
    expect(grouped.surface!.loadedToolsets).toEqual(expect.arrayContaining(['discord', 'discord_admin']));
    expect(grouped.rules).toContain('loaded-together');
    const apart = decideFirstTurnSurface({ tools: hermesTools('full'), format: 'openai-chat', messages, config: toolRoutingConfigSchema.parse({ loaded_together: [] }) });
    expect(apart.surface!.loadedToolsets).toContain('discord');
    expect(apart.surface!.loadedToolsets).not.toContain('discord_admin');
    // A member the client does not have is not invented: the CLI registry has no discord toolsets at all.
    const cli = decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages, config });
    expect(cli.rules).not.toContain('loaded-together');
  });

  it('builds byte-identical surfaces from equal inputs (fresh copies of the tools each time)', () => {
    const first = decideFirstTurnSurface({ tools: hermesTools('cli'), format: 'openai-chat', messages: userTurn('run the tests'), config });
    const second = decideFirstTurnSurface({ tools: hermesTools('cli'), format: 'openai-chat', messages: userTurn('run the tests'), config });
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    const other = decideFirstTurnSurface({ tools: hermesTools('cli'), format: 'openai-chat', messages: userTurn('search the web for bun'), config });
    const catalog = (tools: readonly unknown[]) => JSON.stringify(tools.at(-1));
    expect(catalog(other.tools)).toBe(catalog(first.tools));
  });

  it('keeps the small surface for "what can you do?" with every toolset in the catalog', () => {
    const decision = decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn('hello, what can you do?'), config });
    expect(decision.outcome).toBe('narrowed');
    expect(decision.reason).toBe('capability_inquiry');
    const requestToolset = decision.tools.at(-1) as { function: { description: string } };
    for (const toolset of decision.availableToolsets) expect(requestToolset.function.description).toContain(`- ${toolset}: `);
  });

  it('speaks Anthropic when the client does', () => {
    const decision = decideFirstTurnSurface({ tools: asAnthropicTools(cliTools), format: 'anthropic-messages', messages: userTurn('search the web for the latest node release'), config });
    expect(decision.outcome).toBe('narrowed');
    const last = decision.tools.at(-1) as Record<string, unknown>;
    expect(last['name']).toBe(requestToolsetName);
    expect(last['input_schema']).toBeDefined();
    expect(namesOf(decision.tools)).toContain('web_search');
  });

  it('falls back to the full surface, untouched, whenever it cannot be sure', () => {
    const cases = [
      decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn('x'.repeat(config.max_first_message_chars + 1)), config }),
      decideFirstTurnSurface({ tools: [...cliTools, { type: 'function' }], format: 'openai-chat', messages: userTurn('run the tests'), config }),
      decideFirstTurnSurface({ tools: [...cliTools, { type: 'function', function: { name: requestToolsetName } }], format: 'openai-chat', messages: userTurn('run the tests'), config }),
      decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn('run the tests'), config: toolRoutingConfigSchema.parse({ mode: 'off' }) }),
      decideFirstTurnSurface({ tools: [{ type: 'function', function: { name: 'get_weather', description: 'weather' } }], format: 'openai-chat', messages: userTurn('weather?'), config }),
    ];
    expect(cases.map((decision) => decision.reason)).toEqual(['message_too_long', 'unreadable_tools', 'name_conflict', 'routing_off', 'no_known_toolsets']);
    for (const decision of cases) expect(decision.outcome).toBe('full');
    expect(cases[0]!.tools).toBe(cliTools);
  });

  it('sends the full surface for a message in a script the shipped model was barely taught, and classifies it when the bar is off', () => {
    // Khmer: a few dozen written training lines (trainedOn.writingSystems of the shipped model).
    const message = userTurn('ស្វែងរកព័ត៌មានអាកាសធាតុភ្នំពេញ ហើយផ្ញើមកខ្ញុំ');
    const decision = decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: message, config });
    expect(decision.outcome).toBe('full');
    expect(decision.reason).toBe('abstain');
    expect(decision.tools).toBe(cliTools);
    expect(decision.rules).toContain('unfamiliar-script:Khmer');
    const off = toolRoutingConfigSchema.parse({ thresholds: { unfamiliar_script_lines: 0 } });
    expect(decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: message, config: off }).rules).not.toContain('unfamiliar-script:Khmer');
    // Scripts it was taught on are classified as before.
    expect(decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn('найди свежие новости про выборы'), config }).outcome).toBe('narrowed');
  });

  it('turns an internal error into the full surface', () => {
    const broken = new MultilabelModel({ format: 'hashed-ovr-logistic/1', featureBits: 4, labels: ['file'], bias: [0], rows: {}, weightScale: 1, temperatures: [1], trainedOn: { examples: 0, seed: 0, dataHash: '' } });
    Object.defineProperty(broken, 'predict', { value: () => { throw new Error('boom'); } });
    const decision = decideFirstTurnSurface({ tools: cliTools, format: 'openai-chat', messages: userTurn('run the tests'), config, model: broken });
    expect(decision).toMatchObject({ outcome: 'full', reason: 'internal_error', error: 'boom' });
    expect(decision.tools).toBe(cliTools);
  });

  it('keeps floor toolsets, pinned tools and tools nobody owns', () => {
    // The surface budget off: this is about what is always kept, not about what a budget may add.
    const custom = toolRoutingConfigSchema.parse({ floor_toolsets: ['todo'], pinned_tools: ['memory'], surface_budget: { share: 0, broad_share: 1 } });
    const tools = [...cliTools, { type: 'function', function: { name: 'get_weather', description: 'Weather for a city' } }];
    const names = namesOf(decideFirstTurnSurface({ tools, format: 'openai-chat', messages: userTurn('hi there'), config: custom }).tools);
    expect(names).toEqual(['memory', 'todo', 'get_weather', requestToolsetName]);
  });
});

describe('restoreSurface', () => {
  it('gives a later turn the first turn\'s exact bytes from the stored toolset names', () => {
    const first = decideFirstTurnSurface({ tools: hermesTools('cli'), format: 'openai-chat', messages: userTurn('look up the weather in Oslo'), config });
    const later = restoreSurface(hermesTools('cli'), 'openai-chat', config, first.surface!.loadedToolsets);
    expect(JSON.stringify(later!.tools)).toBe(JSON.stringify(first.tools));
    expect(Object.isFrozen(later!.tools.at(-1))).toBe(true);
    expect(restoreSurface([{ nope: true }], 'openai-chat', config, ['web'])).toBeUndefined();
  });
});

/** A conversation of three messages (user, assistant, user) decided as a resumed one. */
function resumedDecision(first: string, reply: string, latest: string) {
  const messages = [
    ...userTurn(first),
    { role: 'assistant' as const, text: reply, toolCallNames: [], hasImage: false },
    { role: 'user' as const, text: latest, toolCallNames: [], hasImage: false },
  ];
  return decideResumedSurface({ tools: cliTools, format: 'openai-chat', messages, config });
}

describe('decideResumedSurface', () => {
  it('joins the first message classification with the toolsets of tools already called', () => {
    const messages = [
      ...userTurn('read notes.txt'),
      { role: 'assistant' as const, text: '', toolCallNames: ['web_search'], hasImage: false },
      { role: 'tool' as const, text: 'results', toolCallNames: [], hasImage: false },
      { role: 'user' as const, text: 'thanks', toolCallNames: [], hasImage: false },
    ];
    const decision = decideResumedSurface({ tools: cliTools, format: 'openai-chat', messages, config });
    expect(decision.reason).toBe('resumed');
    expect(decision.surface!.loadedToolsets).toEqual(expect.arrayContaining(['file', 'web']));
  });

  it('serves the request being made now: a need the latest user message adds joins the first message\'s', () => {
    const decision = resumedDecision('read notes.txt and summarise it', 'The notes cover the spring fair: stalls, volunteers and the raffle.', 'great, now make me a poster picture for the fair with balloons');
    expect(decision.reason).toBe('resumed');
    expect(decision.surface!.loadedToolsets).toEqual(expect.arrayContaining(['file', 'image_gen']));
    expect(decision.rules.some((rule) => rule.startsWith('latest:'))).toBe(true);
  });

  it('keeps the first message\'s needs when the latest message only confirms', () => {
    const decision = resumedDecision('search the web for this week\'s ferry timetable changes', 'Shall I look for the Friday sailings too?', 'ok go ahead');
    expect(decision.surface!.loadedToolsets).toContain('web');
  });
});

describe('expandSurface', () => {
  const context = toolRoutingContext(cliTools, 'openai-chat', config);
  if (typeof context === 'string') throw new Error(context);
  const names = context.registry.toolsets.map((toolset) => toolset.name);

  it('only grows, and the previous tools array is a prefix of the grown one (the provider cache survives), whatever is added', () => {
    fc.assert(
      fc.property(fc.subarray(names), fc.array(fc.oneof(fc.constantFrom(...names), fc.string())), fc.array(fc.constantFrom(...names)), (start, added, later) => {
        const current = buildSurface(context, config, start);
        // The first surface: the client's order, request_toolset last.
        expect([...current.keptIndices].sort((left, right) => left - right)).toEqual(current.keptIndices);
        expect(current.tools.at(-1)).toBe(context.requestToolset);
        const grown = expandSurface(context, config, current, added);
        const again = expandSurface(context, config, grown, later);
        for (const [before, after] of [[current, grown], [grown, again]] as const) {
          expect(after.loadedToolsets.slice(0, before.loadedToolsets.length)).toEqual(before.loadedToolsets);
          expect(after.tools.slice(0, before.tools.length)).toEqual(before.tools);
          expect(new Set(after.keptIndices).size).toBe(after.keptIndices.length);
        }
        expect(grown.tools.filter((tool) => tool === context.requestToolset)).toHaveLength(1);
        expect(expandSurface(context, config, grown, added)).toEqual(grown);
        // Rebuilt from what a session stores, the grown surface is the same bytes.
        expect(JSON.stringify(restoreSurface(cliTools, 'openai-chat', config, again.loadedToolsets, again.grownToolsets)?.tools)).toBe(JSON.stringify(again.tools));
      }),
      { numRuns: 60 },
    );
  });

  it('brings the rest of a loaded_together group when one member joins, and nothing when none joins', () => {
    const fullTools = hermesTools('full');
    const full = toolRoutingContext(fullTools, 'openai-chat', config);
    if (typeof full === 'string') throw new Error(full);
    const start = buildSurface(full, config, ['web']);
    expect(start.loadedToolsets).not.toContain('discord');
    const grown = expandSurface(full, config, start, ['discord']);
    expect(grown.grownToolsets).toEqual(['discord', 'discord_admin']);
    const apart = toolRoutingConfigSchema.parse({ loaded_together: [] });
    expect(expandSurface(full, apart, buildSurface(full, apart, ['web']), ['discord']).grownToolsets).toEqual(['discord']);
    // A session stored with one member only (the group configured later) keeps its bytes on a turn that adds
    // nothing, and gets the partner only with a growth of its own.
    const lopsided = buildSurface(full, config, ['discord']);
    expect(lopsided.loadedToolsets).not.toContain('discord_admin');
    expect(expandSurface(full, config, lopsided, [])).toEqual(lopsided);
    expect(expandSurface(full, config, lopsided, ['discord']).grownToolsets).toEqual([]);
  });
});
