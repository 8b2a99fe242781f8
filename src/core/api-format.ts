/** The two wire formats a client or a provider can speak. */
export const apiFormats = ['openai-chat', 'anthropic-messages'] as const;
export type ApiFormat = (typeof apiFormats)[number];
