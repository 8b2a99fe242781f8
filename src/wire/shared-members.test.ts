import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../core/json.js';
import { parseJsonBytes } from './json-text.js';
import { attachRawBody, inheritRawBody, serializeJsonBody } from './raw-body.js';
import { parseRequestBody } from './shared-members.js';

const parse = (bytes: Buffer) => parseRequestBody(bytes, bytes.toString('latin1'));

function unshared(bytes: Buffer): JsonObject {
  const parsed = parseJsonBytes(bytes, bytes.toString('latin1')) as JsonObject;
  attachRawBody(parsed, bytes);
  return parsed;
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

/** The spliced upstream body after the model is replaced. */
function upstreamText(body: JsonObject): string {
  const upstream = { ...body, model: 'upstream' };
  inheritRawBody(upstream, body);
  return serializeJsonBody(upstream).toString('utf8');
}

/** Tools long enough to be shared, with text over the whole of Unicode (surrogate pairs, quotes, escapes). */
const tools = fc.array(fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.string({ minLength: 1 }), description: fc.string({ unit: 'binary', maxLength: 40 }), parameters: fc.jsonValue({ maxDepth: 3 }) }) }), { minLength: 1, maxLength: 4 }).map((list) => [...list, { type: 'function', function: { name: 'padding', description: `long — ${'x'.repeat(2100)}` } }]);
const others = fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
const spacing = fc.constantFrom<[number | string | undefined]>([undefined], [2], ['\t']);

function bodyBytes(value: unknown, space: number | string | undefined): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, space)}${' '.repeat(8192)}`);
}

describe('parseRequestBody', () => {
  it('gives the values and key order of JSON.parse, the first time a tools array is seen and every time after', () => {
    fc.assert(
      fc.property(others, tools, fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), spacing, (rest, toolList, prompt, message, [space]) => {
        const system = { role: 'system', content: `${prompt}${'p'.repeat(2100)}` };
        const first = bodyBytes({ ...rest, model: 'm', tools: toolList, messages: [system, { role: 'user', content: message }] }, space);
        const second = bodyBytes({ ...rest, model: 'm', tools: toolList, messages: [system, { role: 'user', content: `${message} again` }] }, space);
        for (const bytes of [first, second, second]) {
          const parsed = parse(bytes) as JsonObject;
          const expected = JSON.parse(bytes.toString('utf8')) as JsonObject;
          expect(JSON.stringify(parsed)).toBe(JSON.stringify(expected));
          expect(Object.keys(parsed)).toEqual(Object.keys(expected));
          // The upstream bytes are those the body's own bytes give, shared or not.
          expect(upstreamText(parsed)).toBe(upstreamText(unshared(bytes)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('shares a tools array seen before (frozen) and forwards it as the client wrote it, byte for byte', () => {
    const toolList = [{ type: 'function', function: { name: 'terminal', description: `Run a command — ${'y'.repeat(3000)}`, parameters: { type: 'object' } } }];
    const members = (turn: number) => ['"model": "alias"', `"tools": ${JSON.stringify(toolList, null, 1)}`, `"messages": [{"role": "user", "content": "turn ${turn} \\u00e9 ${'z'.repeat(9000)}"}]`, '"x": 1.50'];
    const text = (turn: number) => `{${members(turn).join(',\n ')}}`;
    const first = parse(Buffer.from(text(1))) as JsonObject;
    const second = parse(Buffer.from(text(2))) as JsonObject;
    expect(second.tools).toBe(first.tools);
    expect(Object.isFrozen((second.tools as JsonObject[])[0]?.function)).toBe(true);
    const upstream = { ...second, model: 'upstream-model' };
    inheritRawBody(upstream, second);
    // Members are copied from their key to the end of their value; what stood between them is not.
    expect(serializeJsonBody(upstream).toString('utf8')).toBe(`{${['"model":"upstream-model"', ...members(2).slice(1)].join(',')}}`);
  });

  it('answers text that is not JSON with the error JSON.parse gives it, even around a known tools array', () => {
    const toolList = JSON.stringify([{ type: 'function', function: { name: 'read_file', description: 'r'.repeat(9000) } }]);
    parse(Buffer.from(`{"model":"m","tools":${toolList}}`));
    const broken = `{"model":"m","tools":${toolList},"messages":[1,]}`;
    expect(() => JSON.parse(broken)).toThrow(SyntaxError);
    expect(() => parse(Buffer.from(broken))).toThrow(messageOf(() => JSON.parse(broken)));
    const badKey = `{"model":"m","tools":${toolList},"\\x":1}`;
    expect(() => JSON.parse(badKey)).toThrow(SyntaxError);
    expect(() => parse(Buffer.from(badKey))).toThrow(messageOf(() => JSON.parse(badKey)));
  });

  it('parses a body with a key written twice as JSON.parse does (the later value), without sharing', () => {
    const toolList = JSON.stringify([{ type: 'function', function: { name: 'web_search', description: 'w'.repeat(9000) } }]);
    parse(Buffer.from(`{"model":"m","tools":${toolList}}`));
    const twice = JSON.parse(`{"tools":${toolList},"model":"m","tools":[]}`) as JsonObject;
    expect(parse(Buffer.from(`{"tools":${toolList},"model":"m","tools":[]}`))).toEqual(twice);
  });
});

describe('parseRequestBody, the leading system message', () => {
  it('shares a system message seen before, never a user message, and forwards both as the client wrote them', () => {
    const system = `{"role": "system", "content": "You are an agent — ${'s'.repeat(4000)}"}`;
    const user = `{"role": "user", "content": "${'u'.repeat(9000)}"}`;
    const text = (turn: number) => `{"model":"alias","messages":[ ${system}, {"role":"user","content":"turn ${turn}"}],"user_first":[${user}]}`;
    const first = parse(Buffer.from(text(1))) as { messages: JsonObject[] };
    const second = parse(Buffer.from(text(2))) as { messages: JsonObject[] };
    expect(second.messages[0]).toBe(first.messages[0]);
    expect(second.messages).not.toBe(first.messages);
    expect(Object.isFrozen(second.messages[0])).toBe(true);
    expect(second).toEqual(JSON.parse(text(2)));
    const upstream = { ...second, model: 'upstream-model' } as JsonObject;
    inheritRawBody(upstream, second as unknown as JsonObject);
    expect(serializeJsonBody(upstream).toString('utf8')).toBe(text(2).replace('"model":"alias"', '"model":"upstream-model"'));
    const userFirst = `{"model":"m","messages":[${user}]}`;
    parse(Buffer.from(userFirst));
    expect(Object.isFrozen((parse(Buffer.from(userFirst)) as { messages: JsonObject[] }).messages[0])).toBe(false);
  });
});
