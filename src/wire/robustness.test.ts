import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { decodeAnthropicMessagesRequest } from './anthropic-messages/decode.js';
import { decodeOpenAiChatRequest } from './openai-chat/decode.js';
import { anthropicRequestToOpenAi } from './translate/anthropic-request-to-openai.js';
import { anthropicResponseToOpenAi } from './translate/anthropic-response-to-openai.js';
import { createAnthropicToOpenAiStream } from './translate/anthropic-to-openai-stream.js';
import { openAiRequestToAnthropic } from './translate/openai-request-to-anthropic.js';
import { openAiResponseToAnthropic } from './translate/openai-response-to-anthropic.js';
import { createOpenAiToAnthropicStream } from './translate/openai-to-anthropic-stream.js';

const context = { requestId: 'r', receivedAt: 0, hints: {} };

/** Bodies that look roughly like requests (the right keys, any values), plus plain arbitrary JSON. */
const looseMessage = fc.record(
  { role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'developer', 'robot'), content: fc.jsonValue(), tool_calls: fc.jsonValue(), tool_call_id: fc.jsonValue() },
  { requiredKeys: ['role'] },
);
const looseBody = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { model: fc.oneof(fc.string(), fc.jsonValue()), messages: fc.array(fc.oneof(looseMessage, fc.jsonValue()), { maxLength: 6 }), tools: fc.jsonValue(), system: fc.jsonValue(), max_tokens: fc.jsonValue(), stream: fc.jsonValue(), tool_choice: fc.jsonValue() },
    { requiredKeys: [] },
  ),
);
const objectBody: fc.Arbitrary<JsonObject> = looseBody.filter(isJsonObject);

describe('robustness on arbitrary input', () => {
  it('decoders throw nothing but invalid_request', () => {
    fc.assert(
      fc.property(looseBody, (body) => {
        for (const decode of [decodeOpenAiChatRequest, decodeAnthropicMessagesRequest]) {
          try {
            decode(body, context);
          } catch (error) {
            expect(error).toBeInstanceOf(GatewayError);
            expect((error as GatewayError).errorClass).toBe('invalid_request');
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('translators never throw', () => {
    fc.assert(
      fc.property(objectBody, (body) => {
        openAiRequestToAnthropic(body);
        anthropicRequestToOpenAi(body);
        openAiResponseToAnthropic(body, { model: 'm' });
        anthropicResponseToOpenAi(body, { model: 'm' });
      }),
      { numRuns: 300 },
    );
  });

  it('stream translators never throw and always end cleanly', () => {
    const event: fc.Arbitrary<JsonObject> = fc.oneof(
      fc.record({ type: fc.constantFrom('message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping'), index: fc.jsonValue(), delta: fc.jsonValue(), content_block: fc.jsonValue(), usage: fc.jsonValue() }, { requiredKeys: ['type'] }),
      fc.record({ id: fc.jsonValue(), choices: fc.array(fc.record({ delta: fc.jsonValue(), finish_reason: fc.jsonValue() }), { maxLength: 2 }), usage: fc.jsonValue() }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (events) => {
        const toOpenAi = createAnthropicToOpenAiStream({ model: 'm', includeUsage: true });
        const toAnthropic = createOpenAiToAnthropicStream({ model: 'm' });
        for (const item of events) {
          toOpenAi.push(item);
          toAnthropic.push(item);
        }
        toOpenAi.finish();
        const closing = toAnthropic.finish();
        // Either the stream already ended (usage seen after a finish) or finish() ends it now.
        if (closing.length > 0) expect(closing.at(-1)?.event).toBe('message_stop');
      }),
      { numRuns: 300 },
    );
  });
});
