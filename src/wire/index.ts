/** The wire layer: everything that knows the chat-completions and Messages body formats. Pure functions. */
export { decodeAnthropicMessagesRequest } from './anthropic-messages/decode.js';
export { createAnthropicUsageAccumulator, usageFromAnthropicBody, usageFromAnthropicUsage } from './anthropic-messages/usage.js';
export type { DecodeContext } from './decode-context.js';
export { decodeOpenAiChatRequest } from './openai-chat/decode.js';
export { createOpenAiUsageAccumulator, usageFromOpenAiBody, usageFromOpenAiUsage } from './openai-chat/usage.js';
export { encodeAnthropicSseEvent, encodeOpenAiSseChunk, openAiSseDone } from './sse-encode.js';
export { anthropicRequestToOpenAi, type AnthropicToOpenAiRequestOptions } from './translate/anthropic-request-to-openai.js';
export { anthropicResponseToOpenAi } from './translate/anthropic-response-to-openai.js';
export { anthropicStopReasonToOpenAi } from './translate/anthropic-stop-reason-to-openai.js';
export { createAnthropicToOpenAiStream, type AnthropicToOpenAiStreamOptions } from './translate/anthropic-to-openai-stream.js';
export { dropUnsignedThinking } from './translate/drop-unsigned-thinking.js';
export { openAiFinishReasonToAnthropic } from './translate/openai-finish-reason-to-anthropic.js';
export {
  defaultAnthropicMaxTokens,
  openAiRequestToAnthropic,
  type OpenAiToAnthropicRequestOptions,
} from './translate/openai-request-to-anthropic.js';
export { openAiResponseToAnthropic } from './translate/openai-response-to-anthropic.js';
export { createOpenAiToAnthropicStream, type OpenAiToAnthropicStreamOptions } from './translate/openai-to-anthropic-stream.js';
export type { AnthropicStreamEvent, StreamTranslator } from './translate/stream-translator.js';
export type { UsageAccumulator } from './usage-accumulator.js';
