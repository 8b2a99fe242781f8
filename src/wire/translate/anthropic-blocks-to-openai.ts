import { isJsonObject, type JsonObject } from '../../core/json.js';

/**
 * An assistant turn's Anthropic content blocks as an OpenAI assistant message: text blocks joined without a
 * separator (exactly as their streamed deltas concatenate), thinking as `reasoning_content`, tool_use blocks as
 * `tool_calls`; `content` is null for a turn of calls only. Used for history (requests) and for answers.
 */
export function anthropicBlocksToOpenAiMessage(
  blocks: readonly unknown[],
  options: {
    /** Answers carry `refusal: null` after `content`, as OpenAI's own do. */
    refusal?: boolean;
    /** A tool input that is not an object: sent as it is (history, the client's own bytes) or as `{}` (answers). */
    nonObjectInput: 'as-is' | 'empty';
  },
): JsonObject {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: JsonObject[] = [];
  for (const block of blocks) {
    if (!isJsonObject(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    else if (block['type'] === 'thinking' && typeof block['thinking'] === 'string') reasoning.push(block['thinking']);
    else if (block['type'] === 'tool_use') {
      const input = options.nonObjectInput === 'as-is' ? (block['input'] ?? {}) : isJsonObject(block['input']) ? block['input'] : {};
      toolCalls.push({ id: block['id'], type: 'function', function: { name: block['name'], arguments: JSON.stringify(input) } });
    }
  }
  const message: JsonObject = {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : toolCalls.length > 0 ? null : '',
  };
  if (options.refusal) message['refusal'] = null;
  if (reasoning.length > 0) message['reasoning_content'] = reasoning.join('');
  if (toolCalls.length > 0) message['tool_calls'] = toolCalls;
  return message;
}
