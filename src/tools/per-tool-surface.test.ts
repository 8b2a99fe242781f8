import { describe, expect, it } from 'vitest';
import { requestToolsetName } from './catalog.js';
import { defaultToolRoutingConfig, toolRoutingConfigSchema } from './config.js';
import { decideFirstTurnSurface } from './decide-surface.js';
import { restoreSurface } from './surface.js';
import { hermesTools, userTurn } from './test-support/fixtures.js';

/** An agent's own tools that no toolset map knows, written for this test (MCP-like names and descriptions). */
const subjects: [string, string, string[]][] = [
  ['weather_lookup', 'Get the current weather and forecast for a city', ['city', 'days']],
  ['stock_quote', 'Fetch the latest share price for a ticker symbol', ['ticker']],
  ['calendar_create_event', 'Create an event in the user calendar at a date and time', ['title', 'start', 'end']],
  ['email_send', 'Send an email message to a recipient', ['to', 'subject', 'body']],
  ['translate_text', 'Translate text from one language to another', ['text', 'target_language']],
  ['pdf_merge', 'Merge several PDF documents into one file', ['paths']],
  ['currency_convert', 'Convert an amount of money between currencies', ['amount', 'from', 'to']],
  ['flight_search', 'Search airline flights between two airports on a date', ['origin', 'destination', 'date']],
  ['recipe_find', 'Find cooking recipes that use given ingredients', ['ingredients']],
  ['crm_contact_update', 'Update a customer contact record in the CRM', ['contact_id', 'fields']],
  ['git_blame', 'Show which commit last changed each line of a file', ['path']],
  ['image_resize', 'Resize an image file to a width and height', ['path', 'width', 'height']],
  ['timezone_convert', 'Convert a time from one time zone to another', ['time', 'from_zone', 'to_zone']],
  ['invoice_create', 'Create a customer invoice with line items', ['customer', 'items']],
];
const agentTools = subjects.map(([name, description, parameters]) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: Object.fromEntries(parameters.map((parameter) => [parameter, { type: 'string' }])) } },
}));

function namesOf(tools: readonly unknown[]): string[] {
  return tools.map((tool) => (tool as { function: { name: string } }).function.name);
}

describe('per-tool ranking for tools no toolset map knows', () => {
  const config = defaultToolRoutingConfig();

  it('keeps the relevant tools and request_toolset, whose catalog lists the rest', () => {
    const decision = decideFirstTurnSurface({ tools: agentTools, format: 'openai-chat', messages: userTurn('what will the weather be in Oslo over the next three days, and convert 200 euros into dollars'), config });
    expect(decision.outcome).toBe('narrowed');
    const names = namesOf(decision.tools);
    expect(names).toContain('weather_lookup');
    expect(names).toContain('currency_convert');
    expect(names).not.toContain('crm_contact_update');
    expect(names.length).toBeLessThan(agentTools.length / 2);
    expect(names.at(-1)).toBe(requestToolsetName);
    const catalog = JSON.stringify(decision.tools.at(-1));
    for (const [name] of subjects) expect(catalog).toContain(name);
  });

  it('keeps every tool when nothing in the message points at one (unsure → keep)', () => {
    const decision = decideFirstTurnSurface({ tools: agentTools, format: 'openai-chat', messages: userTurn('hello there, how are you today?'), config });
    expect(decision.outcome).toBe('full');
    expect(decision.tools).toBe(agentTools);
  });

  it('is byte-stable on later turns and grows by single tools through request_toolset names', () => {
    const decision = decideFirstTurnSurface({ tools: agentTools, format: 'openai-chat', messages: userTurn('merge the three PDF documents in my downloads into one file'), config });
    const loaded = decision.surface!.loadedToolsets;
    expect(loaded).toContain('pdf_merge');
    const again = restoreSurface(agentTools, 'openai-chat', config, loaded);
    expect(JSON.stringify(again!.tools)).toBe(JSON.stringify(decision.tools));
    const grown = restoreSurface(agentTools, 'openai-chat', config, [...loaded, 'email_send']);
    expect(namesOf(grown!.tools)).toContain('email_send');
  });

  it('leaves Hermes tools to the toolset classifier and ranks only the unknown ones beside them', () => {
    const tools = [...hermesTools('cli'), ...agentTools];
    const decision = decideFirstTurnSurface({ tools, format: 'openai-chat', messages: userTurn('run the test suite, then email the results to my team lead'), config });
    expect(decision.outcome).toBe('narrowed');
    const names = namesOf(decision.tools);
    expect(names).toContain('terminal');
    expect(names).toContain('email_send');
    expect(names).not.toContain('flight_search');
    expect(names).not.toContain('image_generate');
  });

  it('is off below min_tools: a few unknown tools stay on every surface as before', () => {
    const few = agentTools.slice(0, 3);
    const tools = [...hermesTools('cli'), ...few];
    const strict = toolRoutingConfigSchema.parse({ per_tool: { min_tools: 12 } });
    const decision = decideFirstTurnSurface({ tools, format: 'openai-chat', messages: userTurn('run the tests'), config: strict });
    for (const [name] of subjects.slice(0, 3)) expect(namesOf(decision.tools)).toContain(name);
  });

  it('keeps a tool that runs commands when the message quotes a command its description does not name', () => {
    const withShell = [
      ...agentTools,
      { type: 'function', function: { name: 'os_run', description: 'Executes a system-level command on the operating system and returns its output', parameters: { type: 'object', properties: { command: { type: 'string' } } } } },
    ];
    // One best tool kept by rank alone, so only relevance can keep the command tool.
    const rankOnly = toolRoutingConfigSchema.parse({ per_tool: { minimum_kept: 1 } });
    const decision = decideFirstTurnSurface({ tools: withShell, format: 'openai-chat', messages: userTurn('is the flight search container up? check it with docker ps -a'), config: rankOnly });
    expect(decision.outcome).toBe('narrowed');
    const names = namesOf(decision.tools);
    expect(names).toContain('flight_search');
    expect(names).toContain('os_run');
    expect(names.length).toBeLessThan(withShell.length / 2);
    const plain = decideFirstTurnSurface({ tools: withShell, format: 'openai-chat', messages: userTurn('I drive to the airport at 6, search flights from Oslo to Rome for Friday'), config: rankOnly });
    expect(namesOf(plain.tools)).toContain('flight_search');
    expect(namesOf(plain.tools)).not.toContain('os_run');
    // Programs that are also English words count only in a command's shape: "brew a plan", "an apt airline", "ping me".
    const chat = decideFirstTurnSurface({ tools: withShell, format: 'openai-chat', messages: userTurn('search flights to Rome, brew a plan, pick an apt airline and ping me with the one you chose'), config: rankOnly });
    expect(namesOf(chat.tools)).toContain('flight_search');
    expect(namesOf(chat.tools)).not.toContain('os_run');
  });
});
