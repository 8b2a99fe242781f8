import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBytes } from './json-text.js';

// Keys and strings over the whole of Unicode (surrogate pairs, Latin-1, quotes, backslashes), nested freely.
const jsonObject = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 });

/** Parses as the body reader does, and as plain UTF-8 text; both must agree, key order included. */
function bothWays(text: string): { latin1: unknown; utf8: unknown } {
  const bytes = Buffer.from(text);
  return { latin1: parseJsonBytes(bytes, bytes.toString('latin1')), utf8: JSON.parse(bytes.toString('utf8')) };
}

describe('parseJsonBytes', () => {
  it('parses to the same values, keys in the same order, as the UTF-8 text, for any JSON', () => {
    fc.assert(
      fc.property(jsonObject, fc.boolean(), (object, escapeNonAscii) => {
        let text = JSON.stringify(object);
        // Clients that escape every non-ASCII character (Python's json.dumps) send `\u00e9` and `\ud83d\ude00`.
        if (escapeNonAscii) text = text.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
        const { latin1, utf8 } = bothWays(text);
        expect(latin1).toEqual(utf8);
        expect(JSON.stringify(latin1)).toBe(JSON.stringify(utf8));
      }),
      { numRuns: 600 },
    );
  });

  it('decodes non-ASCII keys and values at any depth, and keeps an own __proto__ key', () => {
    const text = '{"__proto__":{"é":1},"naïve — 你好":["😀",{"ключ":"значение","a":"b"}],"\\u4f60":"\\u4f60好","n":[1,null,true]}';
    const { latin1, utf8 } = bothWays(text);
    expect(JSON.stringify(latin1)).toBe(JSON.stringify(utf8));
    expect(Object.getPrototypeOf(latin1)).toBe(Object.prototype);
    expect(Object.keys(latin1 as object)[0]).toBe('__proto__');
  });

  it('merges keys that differ only in being escaped or raw, as JSON.parse of the UTF-8 text does', () => {
    const { latin1, utf8 } = bothWays('{"😀":1,"x":2,"\\ud83d\\ude00":3}');
    expect(JSON.stringify(latin1)).toBe(JSON.stringify(utf8));
  });

  it('reads a Latin-1 escape beside raw characters exactly', () => {
    const { latin1, utf8 } = bothWays('{"a":"caf\\u00e9 café","b":"\\u00ff ÿ"}');
    expect(latin1).toEqual(utf8);
    expect(latin1).toEqual({ a: 'café café', b: 'ÿ ÿ' });
  });

  it('decodes a deeply nested body without overflowing the stack', () => {
    const depth = 50_000;
    const text = `${'['.repeat(depth)}"é"${']'.repeat(depth)}`;
    let value = bothWays(text).latin1;
    for (let level = 0; level < depth; level += 1) value = (value as unknown[])[0];
    expect(value).toBe('é');
  });

  it('throws a SyntaxError for malformed JSON, with or without non-ASCII bytes', () => {
    for (const text of ['{"a": 1 é}', '{"a": "unterminated é', '{"a": 1', 'é']) {
      const bytes = Buffer.from(text);
      expect(() => parseJsonBytes(bytes, bytes.toString('latin1'))).toThrow(SyntaxError);
    }
  });
});
