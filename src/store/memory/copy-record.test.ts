import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyRecord } from './copy-record.js';

describe('copyRecord', () => {
  it('copies JSON data as structuredClone does, sharing nothing that can be edited', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const copy = copyRecord(value);
        expect(copy).toStrictEqual(structuredClone(value));
        if (typeof value === 'object' && value !== null) expect(copy).not.toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps undefined members and an own __proto__ key, and edits of the copy never reach the original', () => {
    const record = JSON.parse('{"__proto__":{"a":1},"toolsets":["web","file"],"nudge":{"sent":["first"]}}') as Record<string, unknown>;
    record.affinity = undefined;
    const copy = copyRecord(record);
    expect(copy).toStrictEqual(structuredClone(record));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    (copy.toolsets as string[]).push('terminal');
    ((copy.nudge as { sent: string[] }).sent as string[]).push('escalated');
    expect(record.toolsets).toEqual(['web', 'file']);
    expect(record.nudge).toEqual({ sent: ['first'] });
  });
});
