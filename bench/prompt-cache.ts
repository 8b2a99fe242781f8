// A replayed Hermes session through the gateway against a fake provider that caches prompts like the real ones,
// with the prompt-cache optimizer on and off, for an Anthropic and an OpenAI upstream. Prints the cache-read
// share of input tokens and the billed input+output cost under each provider's list prices.
//
//   node --import tsx bench/prompt-cache.ts [--json]
//
// The session: the exact bodies Hermes v0.19.0 sent (../shared/fixtures/hermes/requests/: system prompt, 17
// tools, the first three user turns with the real `ls` tool call and result), extended to ten user turns in the
// same shapes (a tool call and its result, then text). Loopback only, bounded (about 16 upstream calls a run).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ConfigInput } from '../src/config/schema.js';
import { FakePromptCache } from '../test/support/fake-upstream/index.js';
import type { CachedInputUsage, FakeBehaviour } from '../test/support/fake-upstream/index.js';
import { startHarness } from '../test/support/gateway-harness.js';

interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

interface ScriptedTurn {
  user: string;
  /** The model calls this tool first (its result is what Hermes would send back), then answers in text. */
  tool?: { name: string; arguments: Record<string, unknown>; result: string };
  answer: string;
}

const requests = join(import.meta.dirname, '../../shared/fixtures/hermes/requests');
const recorded = (name: string) => JSON.parse(readFileSync(join(requests, name), 'utf8')) as { messages: ChatMessage[]; tools: unknown[]; max_tokens: number };
const first = recorded('turn-1.json');
const last = recorded('turn-5.json');
const system = first.messages[0] as ChatMessage;
const lsCall = last.messages[4]?.tool_calls?.[0];
const lsResult = String(last.messages[5]?.content ?? '');

const turns: ScriptedTurn[] = [
  // The three turns Hermes really sent (words, tool call and tool result from the capture).
  { user: String(first.messages[1]?.content), answer: String(last.messages[2]?.content) },
  { user: String(last.messages[3]?.content), tool: { name: lsCall?.function.name ?? 'terminal', arguments: JSON.parse(lsCall?.function.arguments ?? '{}'), result: lsResult }, answer: String(last.messages[6]?.content) },
  { user: String(last.messages[7]?.content), answer: 'You are welcome.' },
  // Seven more in the same shapes.
  { user: 'open notes.txt and tell me what it says', tool: { name: 'read_file', arguments: { path: 'notes.txt' }, result: '{"content": "1|remember the milk\\n2|call the plumber"}' }, answer: 'It lists two reminders: the milk and the plumber.' },
  { user: 'add a third line: book the dentist', tool: { name: 'patch', arguments: { path: 'notes.txt', old: 'call the plumber', new: 'call the plumber\nbook the dentist' }, result: '{"ok": true}' }, answer: 'Added.' },
  { user: 'what does hello.py do?', tool: { name: 'read_file', arguments: { path: 'hello.py' }, result: '{"content": "1|print(\\"hello\\")"}' }, answer: 'It prints hello.' },
  { user: 'run it', tool: { name: 'terminal', arguments: { command: 'python3 hello.py' }, result: '{"output": "hello", "exit_code": 0, "error": null}' }, answer: 'It printed: hello' },
  { user: 'make it print the date as well', tool: { name: 'patch', arguments: { path: 'hello.py', old: 'print("hello")', new: 'import datetime\nprint("hello", datetime.date.today())' }, result: '{"ok": true}' }, answer: 'Done: it now prints the date too.' },
  { user: 'run it again', tool: { name: 'terminal', arguments: { command: 'python3 hello.py' }, result: '{"output": "hello 2026-12-01", "exit_code": 0, "error": null}' }, answer: 'It printed: hello 2026-12-01' },
  { user: 'great, that is all for now', answer: 'Glad to help.' },
];

/** USD per million tokens, list prices (claude-sonnet-4-5; gpt-4.1). */
const prices = {
  anthropic: { input: 3, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3, output: 15 },
  openai: { input: 2, cacheRead: 0.5, output: 8 },
} as const;

type Upstream = keyof typeof prices;

interface RunResult {
  upstream: Upstream;
  optimizer: boolean;
  calls: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  costUsd: number;
}

function configFor(url: string, upstream: Upstream, optimizer: boolean): ConfigInput {
  const provider =
    upstream === 'anthropic'
      ? { id: 'claude', kind: 'anthropic' as const, base_url: url, api_key: 'sk-ant-bench', models: ['capture-model'] }
      : { id: 'openai', kind: 'openai' as const, base_url: `${url}/v1`, api_key: 'sk-openai-bench', models: ['capture-model'] };
  return { providers: [provider], default_model: 'capture-model', prompt_cache: { enabled: optimizer } };
}

async function run(upstream: Upstream, optimizer: boolean): Promise<RunResult> {
  const cache = new FakePromptCache();
  const usages: CachedInputUsage[] = [];
  const usageFor = cache.usageFor.bind(cache);
  cache.usageFor = (request) => {
    const usage = usageFor(request);
    usages.push(usage);
    return usage;
  };
  const harness = await startHarness((url) => configFor(url, upstream, optimizer), {}, { promptCache: cache });
  let outputTokens = 0;
  try {
    const messages: ChatMessage[] = [system];
    for (const [index, turn] of turns.entries()) {
      messages.push({ role: 'user', content: turn.user });
      const steps: FakeBehaviour[] = [];
      if (turn.tool) steps.push({ kind: 'synthetic', toolCalls: [{ name: turn.tool.name, arguments: turn.tool.arguments, id: `call_bench_${index}` }], usage: { inputTokens: 0, outputTokens: 20 } });
      steps.push({ kind: 'synthetic', text: turn.answer, usage: { inputTokens: 0, outputTokens: Math.ceil(turn.answer.length / 4) } });
      for (const step of steps) {
        harness.upstream.enqueue(step);
        // Hermes's body (its max_tokens, model name and tools), answered as JSON here: caching does not depend on streaming.
        const response = await fetch(`${harness.openAiBaseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-id': `bench-${upstream}-${optimizer}` },
          body: JSON.stringify({ model: 'capture-model', messages, tools: first.tools, max_tokens: first.max_tokens, stream: false }),
        });
        const body = (await response.json()) as { choices?: { message: ChatMessage }[]; usage?: { completion_tokens?: number } };
        const message = body.choices?.[0]?.message;
        if (!message) throw new Error(`turn ${index + 1}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
        outputTokens += body.usage?.completion_tokens ?? 0;
        messages.push(message.tool_calls ? { role: 'assistant', content: message.content ?? '', tool_calls: message.tool_calls } : { role: 'assistant', content: message.content });
        for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', name: call.function.name, content: turn.tool?.result ?? '', tool_call_id: call.id });
      }
    }
  } finally {
    await harness.close();
  }
  const sum = (pick: (usage: CachedInputUsage) => number) => usages.reduce((total, usage) => total + pick(usage), 0);
  const read = sum((usage) => usage.cacheReadTokens);
  const written = sum((usage) => usage.cacheWriteTokens);
  const written1h = sum((usage) => usage.cacheWrite1hTokens);
  // OpenAI reports every prompt token in prompt_tokens (cached ones included); Anthropic splits them three ways.
  const plain = upstream === 'openai' ? sum((usage) => usage.inputTokens) - read : sum((usage) => usage.inputTokens);
  const million = 1_000_000;
  const costUsd =
    upstream === 'anthropic'
      ? (plain * prices.anthropic.input + (written - written1h) * prices.anthropic.cacheWrite5m + written1h * prices.anthropic.cacheWrite1h + read * prices.anthropic.cacheRead + outputTokens * prices.anthropic.output) / million
      : (plain * prices.openai.input + read * prices.openai.cacheRead + outputTokens * prices.openai.output) / million;
  return { upstream, optimizer, calls: usages.length, inputTokens: plain + read + written, cacheReadTokens: read, cacheWriteTokens: written, outputTokens, costUsd };
}

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const results: RunResult[] = [];
for (const upstream of ['anthropic', 'openai'] as const) {
  for (const optimizer of [false, true]) results.push(await run(upstream, optimizer));
}

const header = ['upstream', 'optimizer', 'calls', 'input tokens', 'cache read', 'cache write', 'read share', 'billed USD', 'vs off'];
const rows = results.map((result) => {
  const baseline = results.find((other) => other.upstream === result.upstream && !other.optimizer) as RunResult;
  return [
    result.upstream,
    result.optimizer ? 'on' : 'off',
    String(result.calls),
    String(result.inputTokens),
    String(result.cacheReadTokens),
    String(result.cacheWriteTokens),
    (result.cacheReadTokens / Math.max(1, result.inputTokens)).toFixed(3),
    result.costUsd.toFixed(4),
    (result.costUsd / baseline.costUsd).toFixed(3),
  ];
});
const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => (row[column] ?? '').length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ');
console.log(`Hermes session, ${turns.length} user turns, through the gateway (tool routing on) against the caching fake provider`);
console.log('prices per Mtok: anthropic in 3 / write 3.75 (1h: 6) / read 0.30 / out 15; openai in 2 / cached 0.50 / out 8');
console.log(line(header));
for (const row of rows) console.log(line(row));
if (values.json) console.log(JSON.stringify(results));
