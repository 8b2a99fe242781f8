/** OpenAI `finish_reason` → Anthropic `stop_reason`. */
export function openAiFinishReasonToAnthropic(finishReason: unknown): string {
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default: // stop, or none reported
      return 'end_turn';
  }
}
