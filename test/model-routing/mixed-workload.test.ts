import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';
import { adminKey, chat, setSwitch } from './admin-client.js';
import { easyPrompt, hardPrompt, mixedConfig, tinyPng, weatherTool } from './routing-config.js';

interface Row {
  label: string;
  model: string | null;
  route: string | null;
  difficulty: number | undefined;
  policy: string | undefined;
  steps: string;
}

let harness: Harness;
const rows: Row[] = [];

beforeAll(async () => {
  harness = await startHarness((url) => mixedConfig(url), { env: { HERMES_ROUTER_ADMIN_KEY: adminKey } });
});
afterAll(async () => {
  // `HERMES_PRINT_WORKLOAD=1 npx vitest run test/model-routing/mixed-workload.test.ts` prints the table for the notes.
  if (process.env.HERMES_PRINT_WORKLOAD) {
    const lines = rows.map((row, index) => `| ${index + 1} | ${row.label} | ${row.difficulty ?? '–'} | ${row.model} | ${row.route} | ${row.steps} |`);
    process.stdout.write(`| # | request | difficulty | answered by | route | what each policy said |\n|---|---|---|---|---|---|\n${lines.join('\n')}\n`);
  }
  await harness.close();
});

async function run(label: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Row> {
  const before = harness.observer.records.length;
  const result = await chat(harness.gateway.url, body, { 'x-hermes-session-affinity': randomUUID(), ...headers });
  const records = await harness.observer.waitFor(before + 1);
  const decision = records.at(-1)?.decision.models;
  const steps = (decision?.steps ?? [])
    .filter((step) => !/^(no hint|no topic router installed|new session|no session)$/.test(step.reason))
    .map((step) => `${step.policy}: ${step.reason}`)
    .join('; ');
  const skipped = decision?.skipped?.map((entry) => `${entry.model} skipped (${entry.reason})`).join(', ');
  const row: Row = {
    label,
    model: result.headers.get('x-hermes-router-model'),
    route: result.headers.get('x-hermes-router-route'),
    difficulty: decision?.difficulty,
    policy: decision?.policy,
    steps: [steps || decision?.reason, skipped].filter(Boolean).join('; ').replace(/\|/g, '/'),
  };
  rows.push(row);
  return row;
}

const user = (text: string) => [{ role: 'user', content: text }];

describe('a small mixed workload', () => {
  it('routes each request as its policy says', async () => {
    expect((await run('easy fact, alias', { model: 'hermes-router', messages: user(easyPrompt) })).model).toBe('local/cheap-small');
    expect((await run('hard coding task, alias', { model: 'hermes-router', messages: user(hardPrompt) })).model).toBe('local/strong');
    expect((await run('routine turn, alias', { model: 'hermes-router', messages: user('Please update the README with the new install steps for the project.') })).model).toBe('local/cheap-small');
    expect((await run('easy + tools', { model: 'hermes-router', messages: user(easyPrompt), tools: [weatherTool] })).model).toBe('local/cheap-small');
    const image = [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: tinyPng } }] }];
    expect((await run('image', { model: 'hermes-router', messages: image })).model).toBe('local/mid');
    const long = `Summarise: ${'lorem ipsum dolor sit amet '.repeat(1_600)}`;
    expect((await run('40k-char prompt', { model: 'hermes-router', messages: user(long) })).model).not.toBe('local/cheap-small');
    expect((await run('easy, hint planning', { model: 'hermes-router', messages: user(easyPrompt) }, { 'x-hermes-workload-hint': 'planning' })).model).toBe('local/strong');
    expect((await run('easy, hint general', { model: 'hermes-router', messages: user(easyPrompt) }, { 'x-hermes-workload-hint': 'general' })).model).toBe('local/cheap-small');
    const session = { 'x-hermes-session-affinity': 'agent-loop-1' };
    expect((await run('session turn 1 (short)', { model: 'hermes-router', messages: user('Rename the variable in utils to something clearer please.') }, session)).model).toBe('local/cheap-small');
    expect((await run('session turn 2 (hard)', { model: 'hermes-router', messages: user(hardPrompt) }, session)).model).toBe('local/strong');
    const third = await run('session turn 3 (easy)', { model: 'hermes-router', messages: user(easyPrompt) }, session);
    expect([third.model, third.route]).toEqual(['local/strong', 'affinity']);
    expect((await run('tool loop', { model: 'hermes-router', messages: user('go'), tools: [weatherTool] }, { 'x-hermes-tool-loop': 'true' })).model).toBe('local/cheap-small');
    expect((await run('explicit strong', { model: 'strong', messages: user(easyPrompt) })).route).toBe('explicit');
    harness.upstream.setScript({ byModel: { strong: { kind: 'error', status: 500 } } });
    const fallback = await run('explicit strong, strong down', { model: 'strong', messages: user(easyPrompt) });
    expect([fallback.model, fallback.route]).toEqual(['local/mid', 'fallback']);
    harness.upstream.reset();
    await setSwitch(harness.gateway.url, { provider: 'local', model: 'cheap-small', enabled: false });
    expect((await run('easy, cheap-small switched off', { model: 'hermes-router', messages: user(easyPrompt) })).model).toBe('local/mid');
  });
});
