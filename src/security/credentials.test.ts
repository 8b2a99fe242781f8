import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { presentedKeys } from './credentials.js';

function request(headers: Record<string, string>, url = '/v1/chat/completions'): IncomingMessage {
  return { headers, url } as unknown as IncomingMessage;
}

describe('presentedKeys', () => {
  it('reads every place an SDK puts its key, without duplicates', () => {
    expect(presentedKeys(request({ authorization: 'Bearer sk-a', 'x-api-key': 'sk-a' }))).toEqual(['sk-a']);
    expect(presentedKeys(request({ authorization: 'Bearer placeholder', 'x-api-key': 'sk-b' }))).toEqual(['placeholder', 'sk-b']);
  });

  it('reads Gemini keys from x-goog-api-key and ?key=', () => {
    expect(presentedKeys(request({ 'x-goog-api-key': 'sk-g' }, '/v1beta/models/m:generateContent'))).toEqual(['sk-g']);
    expect(presentedKeys(request({}, '/v1beta/models/m:streamGenerateContent?alt=sse&key=sk-q'))).toEqual(['sk-q']);
  });
});
