import { isJsonObject } from '../../core/json.js';
import type { WireFormat } from '../wire-format.js';
import { anthropicEventText, anthropicResponseText, appendTextToAnthropicBody, appendTextToAnthropicStream } from './answer-text.js';
import { anthropicBodyAsEvents } from './body-as-stream.js';
import { decodeAnthropicMessagesRequest } from './decode.js';
import { anthropicErrorBody } from './error-body.js';
import { createAnthropicRecoveryFilter } from './recovery-filter.js';
import { anthropicSystemPromptMembers } from './system-prompt.js';
import { appendAnthropicToolRoundTrip, anthropicFunctionTool, readAnthropicTool, stripAnthropicToolCalls } from './tools.js';
import { createAnthropicUsageAccumulator, usageFromAnthropicBody } from './usage.js';

/** Anthropic Messages: `/v1/messages` bodies, events and errors. */
export const anthropicMessages: WireFormat = {
  name: 'anthropic-messages',
  decode: decodeAnthropicMessagesRequest,
  systemPromptMembers: anthropicSystemPromptMembers,
  readTool: readAnthropicTool,
  functionTool: anthropicFunctionTool,
  appendToolRoundTrip: appendAnthropicToolRoundTrip,
  usageFromBody: usageFromAnthropicBody,
  createUsageAccumulator: createAnthropicUsageAccumulator,
  responseText: anthropicResponseText,
  streamEventText: anthropicEventText,
  stripToolCalls: stripAnthropicToolCalls,
  createRecoveryFilter: createAnthropicRecoveryFilter,
  appendTextToBody: appendTextToAnthropicBody,
  appendTextToStream: appendTextToAnthropicStream,
  errorBody: anthropicErrorBody,
  // Every event is named (`event: error`); the stream ends with its message_stop event, no sentinel.
  errorEventName: 'error',
  streamEndData: undefined,
  promptCacheBreakpoints: true,
  renewAnswer: (serialized) => serialized,
  bodyAsStreamEvents: (body) => anthropicBodyAsEvents(body),
  streamEventName: (payload) => (typeof payload.type === 'string' ? payload.type : 'message'),
  streamEventState: (payload) => {
    if (payload.type === 'message_stop') return 'ended';
    return payload.type === 'message_delta' && isJsonObject(payload.delta) && payload.delta.stop_reason != null ? 'finished' : undefined;
  },
  // A provider that ended after the stop reason but without message_stop: the protocol is finished for it.
  closingEvents: () => [{ payload: { type: 'message_stop' }, eventName: 'message_stop' }],
  usageOnlyEvent: () => false,
};
