/**
 * What decoding a 70 KB Hermes chat body costs beyond JSON.parse (moved here from src/wire/decode.test.ts, where
 * a bound of 0.2 ms per decode asserted a speed on a shared machine). Best of five rounds of 30 fresh bodies,
 * after 50 warm-up decodes; prints milliseconds per decode.
 *
 *   npx tsx bench/decode.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOpenAiChatRequest } from '../src/wire/openai-chat/decode.js';
import { hermesRequestsDirectory } from '../src/wire/test-support/recordings.js';

const text = JSON.stringify(JSON.parse(readFileSync(join(hermesRequestsDirectory, 'turn-5.json'), 'utf8')));
const bodies = Array.from({ length: 200 }, () => JSON.parse(text) as unknown);
const context = { requestId: 'bench', receivedAt: Date.now(), hints: {}, bodyLength: text.length };
for (const body of bodies.slice(0, 50)) decodeOpenAiChatRequest(body, context);
let perDecode = Number.POSITIVE_INFINITY;
for (let round = 0; round < 5; round++) {
  const batch = bodies.slice(50 + round * 30, 80 + round * 30);
  const started = performance.now();
  for (const body of batch) decodeOpenAiChatRequest(body, context);
  perDecode = Math.min(perDecode, (performance.now() - started) / batch.length);
}
console.log(`decode of a ${(text.length / 1024).toFixed(0)} KB Hermes body beyond JSON.parse: ${perDecode.toFixed(4)} ms (best of 5 rounds of 30)`);
