import { describe, expect, it } from 'vitest';
import { detectSkipPrefix, stripSkipPrefix } from './skip-prefix.js';

describe('skip prefixes', () => {
  it.each(['/sd', '!sd', '@@sd', '/skipdetect', '!skipdetect', '@@skipdetect'])('%s skips and is stripped', (prefix) => {
    expect(detectSkipPrefix(`${prefix} fix this failing API test`)).toEqual({ skipped: true, prefix, text: 'fix this failing API test' });
  });

  it.each(['/sdd fix it', '/skip fix it', 'please /sd fix it', '/sdx', '#sd fix'])('%s is ordinary text', (text) => {
    expect(detectSkipPrefix(text)).toEqual({ skipped: false, text });
  });

  it('accepts a bare prefix and upper case', () => {
    expect(detectSkipPrefix('/SD')).toMatchObject({ skipped: true, text: '' });
  });

  it('strips only the last user message and leaves the input untouched', () => {
    const messages = [
      { role: 'user', content: '/sd earlier' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: '!sd what is this' }] },
    ];
    const result = stripSkipPrefix(messages);
    expect(result.skipped).toBe(true);
    expect(result.messages[2]?.content).toEqual([{ type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'what is this' }]);
    expect(result.messages[0]?.content).toBe('/sd earlier');
    expect(messages[2]?.content).toEqual([{ type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: '!sd what is this' }]);
  });
});
