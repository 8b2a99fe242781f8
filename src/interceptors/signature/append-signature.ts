import type { ApiFormat } from '../../core/api-format.js';
import { isJsonObject } from '../../core/json.js';
import type { JsonObject } from '../../core/json.js';
import { signatureSeparator } from './routing-signature.js';

/**
 * Appends the signature to a complete (non-streaming) answer in the client's format, in place. Answers that are
 * only tool calls get none: the client feeds those back to the model, and a stray line would end up in context.
 * Returns whether it appended.
 */
export function appendSignatureToBody(body: JsonObject, format: ApiFormat, signature: string): boolean {
  if (format === 'openai-chat') {
    const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isJsonObject(choice) || !isJsonObject(choice.message)) return false;
    const content = choice.message.content;
    if (typeof content !== 'string' || content === '') return false;
    choice.message.content = `${content}${signatureSeparator}${signature}`;
    return true;
  }
  if (!Array.isArray(body.content) || body.stop_reason === 'tool_use') return false;
  for (let index = body.content.length - 1; index >= 0; index -= 1) {
    const block = body.content[index];
    if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') {
      block.text = `${block.text}${signatureSeparator}${signature}`;
      return true;
    }
  }
  return false;
}
