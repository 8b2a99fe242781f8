import { isJsonObject } from '../../core/json.js';
import type { WireFormat } from '../wire-format.js';
import { appendTextToOpenAiBody, appendTextToOpenAiStream, openAiChunkText, openAiResponseText } from './answer-text.js';
import { openAiBodyAsChunks } from './body-as-stream.js';
import { decodeOpenAiChatRequest } from './decode.js';
import { openAiErrorBody } from './error-body.js';
import { createOpenAiRecoveryFilter } from './recovery-filter.js';
import { openAiSystemPromptMembers } from './system-prompt.js';
import { appendOpenAiToolRoundTrip, openAiFunctionTool, readOpenAiTool, stripOpenAiToolCalls } from './tools.js';
import { createOpenAiUsageAccumulator, usageFromOpenAiBody } from './usage.js';

/** OpenAI chat completions: `/v1/chat/completions` bodies, chunks and errors. */
export const openAiChat: WireFormat = {
  name: 'openai-chat',
  decode: decodeOpenAiChatRequest,
  systemPromptMembers: openAiSystemPromptMembers,
  readTool: readOpenAiTool,
  functionTool: openAiFunctionTool,
  appendToolRoundTrip: appendOpenAiToolRoundTrip,
  usageFromBody: usageFromOpenAiBody,
  createUsageAccumulator: createOpenAiUsageAccumulator,
  responseText: openAiResponseText,
  streamEventText: openAiChunkText,
  stripToolCalls: stripOpenAiToolCalls,
  createRecoveryFilter: createOpenAiRecoveryFilter,
  appendTextToBody: appendTextToOpenAiBody,
  appendTextToStream: appendTextToOpenAiStream,
  errorBody: openAiErrorBody,
  // An error chunk is a bare `data:` frame; the stream always ends with `data: [DONE]`.
  errorEventName: undefined,
  streamEndData: '[DONE]',
  promptCacheBreakpoints: false,
  renewAnswer: (serialized) => serialized,
  bodyAsStreamEvents: openAiBodyAsChunks,
  streamEventName: () => undefined,
  // The stream ends with `[DONE]` (the relay reads it as the end); a finish reason means the answer is whole.
  streamEventState: (payload) =>
    Array.isArray(payload.choices) && payload.choices.some((choice) => isJsonObject(choice) && choice.finish_reason != null) ? 'finished' : undefined,
  closingEvents: () => [],
  usageOnlyEvent: (payload) => Array.isArray(payload.choices) && payload.choices.length === 0 && payload.usage != null,
};
