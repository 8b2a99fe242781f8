/**
 * Blocks agents put into the user's message that are not the user's request: Claude Code and Qwen Code
 * `<system-reminder>`, Codex `<environment_context>` and `<user_instructions>`/`<INSTRUCTIONS>`, Gemini CLI
 * `<session_context>`. Qwen Code's first message carries ~10K characters of them before a 19-character request.
 */
const agentContextBlock = /<(system-reminder|environment_context|session_context|user_instructions|INSTRUCTIONS)>[\s\S]*?<\/\1>/g;

/**
 * The user's own text: agent context blocks removed, whitespace trimmed, and a message that is one quoted string
 * as a whole unquoted (`opencode run` sends its prompt that way; read as quoted speech, the request itself would
 * look like something the user is only reporting).
 */
export function withoutAgentContext(text: string): string {
  const stripped = text.includes('<') ? text.replace(agentContextBlock, '').trim() : text;
  return wholeQuote.test(stripped) ? stripped.slice(1, -1) : stripped;
}

const wholeQuote = /^"[^"]+"$/;
