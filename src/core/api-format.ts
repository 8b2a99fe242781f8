/**
 * The wire formats a client or a provider can speak. `openai-responses` is OpenAI's Responses API: clients speak
 * it (Codex), and so does OpenAI itself, beside chat completions.
 */
export const apiFormats = ['openai-chat', 'anthropic-messages', 'openai-responses'] as const;
export type ApiFormat = (typeof apiFormats)[number];
