import type { SyntheticContent } from './synthetic-content.js';

/**
 * Chat-completions replies built in the shape api.openai.com sends (gpt-4o / gpt-4.1 era). No recording of
 * parallel tool calls exists, so this follows the documented stream: the first delta of each call carries
 * `index`, `id`, `type` and `name` with empty `arguments`; later deltas carry only `index` and an arguments
 * fragment; the last choice chunk has an empty delta and the finish reason; a `choices: []` chunk has the usage.
 */

const created = 1_770_000_000;
const systemFingerprint = 'fp_fake0000';

function usageObject(content: SyntheticContent): Record<string, unknown> {
  const { inputTokens, outputTokens } = content.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: content.usage.cacheReadTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReason(content: SyntheticContent): string {
  return content.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

export function openAiChunks(content: SyntheticContent, responseId: string): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
    id: responseId,
    object: 'chat.completion.chunk',
    created,
    model: content.model,
    service_tier: 'default',
    system_fingerprint: systemFingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  });
  const chunks: Record<string, unknown>[] = [];
  const hasText = content.textPieces.length > 0;
  if (hasText) {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const piece of content.textPieces) chunks.push(chunk({ content: piece }));
  }
  content.toolCalls.forEach((call, index) => {
    const header = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    const isFirstDelta = !hasText && index === 0;
    chunks.push(
      chunk(
        isFirstDelta
          ? { role: 'assistant', content: null, tool_calls: [header], refusal: null }
          : { tool_calls: [header] },
      ),
    );
    for (const piece of call.argumentPieces) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  if (!hasText && content.toolCalls.length === 0) {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }));
  }
  chunks.push(chunk({}, finishReason(content)));
  chunks.push({ ...chunk({}), choices: [], usage: usageObject(content) });
  return chunks;
}

export function openAiBody(content: SyntheticContent, responseId: string): Record<string, unknown> {
  const text = content.textPieces.join('');
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' && content.toolCalls.length > 0 ? null : text,
  };
  if (content.toolCalls.length > 0) {
    message['tool_calls'] = content.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  message['refusal'] = null;
  message['annotations'] = [];
  return {
    id: responseId,
    object: 'chat.completion',
    created,
    model: content.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(content) }],
    usage: usageObject(content),
    service_tier: 'default',
    system_fingerprint: systemFingerprint,
  };
}
