import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../core/json.js';
import { jsonTextOf } from './json-text.js';
import { attachRawBody, inheritRawBody, serializeJsonBody } from './raw-body.js';
import { scanTopLevelMembers } from './top-level-members.js';

// Strings over the whole of Unicode (surrogate pairs, U+2028, quotes, backslashes, controls), nested freely.
const jsonObject = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 });
// Whitespace as clients write it: none, pretty-printed, or tabs.
const spacing = fc.constantFrom<[number | string | undefined]>([undefined], [2], ['\t']);

function bytesOf(value: unknown, space: number | string | undefined): Buffer {
  return Buffer.from(JSON.stringify(value, null, space));
}

describe('jsonTextOf', () => {
  it('parses to the same values as the UTF-8 text, for any JSON', () => {
    fc.assert(
      fc.property(jsonObject, spacing, (object, [space]) => {
        const bytes = bytesOf(object, space);
        expect(JSON.parse(jsonTextOf(bytes))).toEqual(JSON.parse(bytes.toString('utf8')));
      }),
      { numRuns: 400 },
    );
  });

  it('stays ASCII (one byte per character) for text with characters beyond Latin-1', () => {
    const bytes = Buffer.from(JSON.stringify({ note: 'naïve — 你好 😀', list: ['é'] }));
    const text = jsonTextOf(bytes);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    expect(JSON.parse(text)).toEqual({ note: 'naïve — 你好 😀', list: ['é'] });
  });

  it('keeps malformed JSON malformed', () => {
    expect(() => JSON.parse(jsonTextOf(Buffer.from('{"a": 1 é}')))).toThrow(SyntaxError);
    expect(() => JSON.parse(jsonTextOf(Buffer.from('{"a": "unterminated é')))).toThrow(SyntaxError);
  });
});

describe('scanTopLevelMembers', () => {
  it('finds every top-level member, and each span parses to its value', () => {
    fc.assert(
      fc.property(jsonObject, spacing, (object, [space]) => {
        const bytes = bytesOf(object, space);
        const members = scanTopLevelMembers(bytes);
        const parsed = JSON.parse(bytes.toString('utf8')) as JsonObject;
        expect(members && [...members.keys()]).toEqual(Object.keys(parsed));
        for (const [key, span] of members ?? []) {
          expect(JSON.parse(`{${bytes.toString('utf8', span.start, span.end)}}`)).toEqual({ [key]: parsed[key] });
        }
      }),
      { numRuns: 400 },
    );
  });

  it('refuses duplicate keys, which a copy could not resolve as JSON.parse does', () => {
    expect(scanTopLevelMembers(Buffer.from('{"model":"a","model":"b"}'))).toBeUndefined();
  });

  it('handles escaped quotes and backslashes before a closing quote', () => {
    const members = scanTopLevelMembers(Buffer.from('{"a":"x\\\\","b":"say \\"hi\\"","c":[{"d":"}"}]}'));
    expect([...(members?.keys() ?? [])]).toEqual(['a', 'b', 'c']);
  });
});

describe('serializeJsonBody', () => {
  it('equals JSON.stringify of the edited copy, whatever members were replaced, added or removed', () => {
    const edit = fc.record({
      replace: fc.array(fc.nat(), { maxLength: 3 }),
      remove: fc.array(fc.nat(), { maxLength: 2 }),
      add: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
    });
    fc.assert(
      fc.property(jsonObject, spacing, edit, (object, [space], changes) => {
        const bytes = bytesOf(object, space);
        const parsed = JSON.parse(jsonTextOf(bytes)) as JsonObject;
        attachRawBody(parsed, bytes);
        const copy: JsonObject = { ...parsed };
        inheritRawBody(copy, parsed);
        const keys = Object.keys(copy);
        for (const index of changes.replace) if (keys.length > 0) copy[keys[index % keys.length] as string] = { replaced: index };
        for (const index of changes.remove) if (keys.length > 0) delete copy[keys[index % keys.length] as string];
        Object.assign(copy, changes.add);
        expect(JSON.parse(serializeJsonBody(copy).toString('utf8'))).toEqual(JSON.parse(JSON.stringify(copy)));
      }),
      { numRuns: 400 },
    );
  });

  it('forwards untouched members as the client wrote them, byte for byte', () => {
    const original = '{"model": "alias", "messages": [{"role": "user", "content": "h\\u00e9llo 😀"}],\n "x_unknown": 1.50}';
    const bytes = Buffer.from(original);
    const parsed = JSON.parse(jsonTextOf(bytes)) as JsonObject;
    attachRawBody(parsed, bytes);
    const copy = { ...parsed, model: 'upstream-model' };
    inheritRawBody(copy, parsed);
    expect(serializeJsonBody(copy).toString('utf8')).toBe(
      '{"model":"upstream-model","messages": [{"role": "user", "content": "h\\u00e9llo 😀"}],"x_unknown": 1.50}',
    );
  });

  it('serialises bodies it has no bytes for', () => {
    expect(serializeJsonBody({ a: [1, 'é'] }).toString('utf8')).toBe('{"a":[1,"é"]}');
  });

  it('catches a stage that edited a parsed value in place (the check the test suite turns on)', () => {
    const bytes = Buffer.from('{"model":"a","messages":[{"role":"user","content":"hi"}]}');
    const parsed = JSON.parse(jsonTextOf(bytes)) as JsonObject;
    attachRawBody(parsed, bytes);
    ((parsed.messages as JsonObject[])[0] as JsonObject).content = 'changed in place';
    const copy = { ...parsed };
    inheritRawBody(copy, parsed);
    expect(process.env.HERMES_ROUTER_VERIFY_RAW_BODIES).toBe('1');
    expect(() => serializeJsonBody(copy)).toThrow(/mutated a parsed value in place/);
  });
});
