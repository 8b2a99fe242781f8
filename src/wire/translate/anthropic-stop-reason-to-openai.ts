/** Anthropic `stop_reason` → OpenAI `finish_reason`. */
export function anthropicStopReasonToOpenAi(stopReason: unknown): string {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default: // end_turn, stop_sequence, pause_turn, or none reported
      return 'stop';
  }
}
