/**
 * Blocks agents put into the user's message that are not the user's request: Claude Code and Qwen Code
 * `<system-reminder>`, Codex `<environment_context>` and `<user_instructions>`/`<INSTRUCTIONS>`, Gemini CLI
 * `<session_context>`. Qwen Code's first message carries ~10K characters of them before a 19-character request.
 */
const agentContextBlock = /<(system-reminder|environment_context|session_context|user_instructions|INSTRUCTIONS)>[\s\S]*?<\/\1>/g;

/** The user's own text: agent context blocks removed, whitespace trimmed. */
export function withoutAgentContext(text: string): string {
  if (!text.includes('<')) return text;
  return text.replace(agentContextBlock, '').trim();
}
