import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateSources } from '../../src/models/candidate.js';
import { defaultConfig, startHarness } from '../support/gateway-harness.js';
import type { Harness } from '../support/gateway-harness.js';

/** The values the README lists for x-hermes-router-route, in backticks, from its paragraph. */
function documentedRoutes(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('`x-hermes-router-route`, why');
  expect(start, 'README describes x-hermes-router-route').toBeGreaterThan(-1);
  const paragraph = readme.slice(start + '`x-hermes-router-route`'.length, readme.indexOf('\n\n', start));
  return [...paragraph.matchAll(/`([a-z-]+)` \(/g), ...paragraph.matchAll(/`([a-z-]+)`(?:,| or)/g)].map((match) => match[1] ?? '').filter((value) => value !== '');
}

let harness: Harness;
let client: OpenAI;
beforeAll(async () => {
  harness = await startHarness();
  client = new OpenAI({ baseURL: harness.openAiBaseUrl, apiKey: 'x', maxRetries: 0 });
});
afterAll(() => harness.close());

async function route(model: string): Promise<string | null> {
  const { response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: `which route? ${Math.random()}` }] }).withResponse();
  return response.headers.get('x-hermes-router-route');
}

describe('README x-hermes-router-route values', () => {
  it('lists exactly what the gateway can send: every candidate source and cache', () => {
    expect(new Set(documentedRoutes())).toEqual(new Set([...candidateSources, 'cache']));
  });

  it('the values sent for a named model, the alias and a failover are documented ones', async () => {
    const documented = new Set(documentedRoutes());
    expect(await route('gpt-test')).toBe('explicit');
    // The alias: `default`, or the routing policy that chose (cheapest-capable here).
    const alias = await route('hermes-router');
    expect(documented.has(alias ?? '')).toBe(true);
    harness.upstream.setScript({ byModel: { 'gpt-test': { kind: 'error', status: 503 } } });
    expect(await route('gpt-test')).toBe('fallback');
    for (const value of ['explicit', 'default', 'fallback']) expect(documented.has(value)).toBe(true);
    expect(documented.has('requested')).toBe(false);
  });
});
