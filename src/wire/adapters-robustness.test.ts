import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { GeminiAnswerCodec } from './gemini/answer-codec.js';
import { readGeminiRequest } from './gemini/request.js';
import { geminiToChatRequest } from './gemini/request-to-chat.js';
import { decodeOpenAiChatRequest } from './openai-chat/decode.js';
import { readResponsesRequest } from './openai-responses/request.js';
import { responsesToChatRequest } from './openai-responses/request-to-chat.js';
import { createStreamTranslation, translateResponseBody } from './translate/translation.js';

const context = { requestId: 'r', receivedAt: 0, hints: {} };

const responsesItem = fc.record(
  {
    type: fc.constantFrom('message', 'function_call', 'function_call_output', 'reasoning', 'custom_tool_call', 'item_reference', 'other'),
    role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'robot'),
    content: fc.jsonValue(),
    call_id: fc.jsonValue(),
    name: fc.jsonValue(),
    arguments: fc.jsonValue(),
    output: fc.jsonValue(),
    summary: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const responsesBody = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { model: fc.oneof(fc.constant('m'), fc.jsonValue()), input: fc.oneof(fc.string(), fc.array(fc.oneof(responsesItem, fc.jsonValue()), { maxLength: 6 })), instructions: fc.jsonValue(), tools: fc.jsonValue(), tool_choice: fc.jsonValue(), text: fc.jsonValue(), reasoning: fc.jsonValue(), stream: fc.jsonValue(), store: fc.jsonValue() },
    { requiredKeys: [] },
  ),
);

const geminiPart = fc.record({ text: fc.jsonValue(), functionCall: fc.jsonValue(), functionResponse: fc.jsonValue(), inlineData: fc.jsonValue(), thought: fc.jsonValue() }, { requiredKeys: [] });
const geminiBody = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      contents: fc.array(fc.oneof(fc.record({ role: fc.constantFrom('user', 'model', 'robot'), parts: fc.oneof(fc.array(geminiPart, { maxLength: 4 }), fc.jsonValue()) }), fc.jsonValue()), { maxLength: 5 }),
      systemInstruction: fc.jsonValue(),
      tools: fc.jsonValue(),
      toolConfig: fc.jsonValue(),
      generationConfig: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

const chatChunk: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ choices: fc.array(fc.record({ index: fc.jsonValue(), delta: fc.jsonValue(), finish_reason: fc.jsonValue() }, { requiredKeys: [] }), { maxLength: 2 }), usage: fc.jsonValue(), model: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ error: fc.jsonValue() }),
  fc.dictionary(fc.string(), fc.jsonValue()),
);

function expectOnlyInvalidRequest(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).errorClass).toBe('invalid_request');
  }
}

describe('inbound adapters on arbitrary input', () => {
  it('a Responses body is refused with invalid_request or becomes a chat body the chat decoder accepts', () => {
    fc.assert(
      fc.property(responsesBody, (body) => {
        expectOnlyInvalidRequest(() => {
          const request = readResponsesRequest(body);
          const { chat } = responsesToChatRequest(request, []);
          // What the adapter accepts, the chat path can route: a refusal is the adapter's, naming the client's field.
          decodeOpenAiChatRequest(chat, context);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a Gemini body is refused with invalid_request or becomes a chat body', () => {
    fc.assert(
      fc.property(geminiBody, (body) => {
        expectOnlyInvalidRequest(() => {
          const chat = geminiToChatRequest(readGeminiRequest(body, 'm', true));
          decodeOpenAiChatRequest(chat, context);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('the answer translations never throw on any chunk sequence and always close', () => {
    const translation = { clientBody: { tools: [{ type: 'custom', name: 'patch' }] }, requestId: 'hr_1', receivedAt: 0, model: 'm' };
    fc.assert(
      fc.property(fc.array(chatChunk, { maxLength: 8 }), fc.jsonValue(), (chunks, completion) => {
        const responses = createStreamTranslation('openai-chat', 'openai-responses', translation, { includeUsage: true });
        let last: unknown;
        const gemini = new GeminiAnswerCodec('m', 'r');
        for (const chunk of chunks) {
          last = responses?.push(chunk).at(-1)?.payload ?? last;
          gemini.streamChunk(chunk);
        }
        last = responses?.finish().at(-1)?.payload ?? last;
        gemini.streamEnd();
        const response = isJsonObject(last) && isJsonObject(last['response']) ? last['response'] : {};
        expect(['completed', 'incomplete', 'failed']).toContain(response['status']);
        if (isJsonObject(completion)) {
          translateResponseBody(completion, 'openai-chat', 'openai-responses', translation);
          new GeminiAnswerCodec('m', 'r').json(completion);
        }
      }),
      { numRuns: 300 },
    );
  });
});
