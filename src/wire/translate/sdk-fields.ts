import type { ContentBlockParam, MessageCreateParamsBase, RawMessageStreamEvent, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';

/**
 * The field names the translators write, checked against the official SDK types at compile time (`satisfies`
 * fails on a misspelled or removed field); tests check at run time that translated bodies use only these.
 * Type-only imports: nothing from the SDKs is loaded.
 */
export const anthropicRequestFields = [
  'model',
  'max_tokens',
  'system',
  'messages',
  'tools',
  'tool_choice',
  'stop_sequences',
  'thinking',
  'metadata',
  'stream',
] as const satisfies readonly (keyof MessageCreateParamsBase)[];

/** Sent only with `samplingParameters: true`: gone from the SDK types, still taken by older models and hosts. */
export const anthropicLegacySamplingFields = ['temperature', 'top_p', 'top_k'] as const;

export const anthropicContentTypes = [
  'text',
  'image',
  'document',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
] as const satisfies readonly ContentBlockParam['type'][];

export const anthropicToolChoiceTypes = ['auto', 'any', 'tool', 'none'] as const satisfies readonly ToolChoice['type'][];

export const anthropicStreamEventTypes = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
] as const satisfies readonly RawMessageStreamEvent['type'][];

export const openAiRequestFields = [
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'stop',
  'temperature',
  'top_p',
  'reasoning_effort',
  'response_format',
  'user',
  'stream',
  'stream_options',
] as const satisfies readonly (keyof ChatCompletionCreateParamsBase)[];

export const openAiMessageRoles = ['system', 'user', 'assistant', 'tool'] as const satisfies readonly ChatCompletionMessageParam['role'][];

export const openAiContentPartTypes = ['text', 'image_url', 'file'] as const satisfies readonly ChatCompletionContentPart['type'][];

export const openAiChunkFields = ['id', 'object', 'created', 'model', 'choices', 'usage'] as const satisfies readonly (keyof ChatCompletionChunk)[];

export const openAiChunkDeltaFields = ['role', 'content', 'tool_calls', 'refusal'] as const satisfies readonly (keyof ChatCompletionChunk.Choice.Delta)[];

/** Not in the OpenAI types: the reasoning text DeepSeek, xAI and vLLM stream, which clients read by this name. */
export const openAiReasoningDeltaField = 'reasoning_content';
