import type { ApiFormat } from '../core/api-format.js';

export interface ProviderKindInfo {
  /** Which adapter folder implements it. */
  adapter: 'openai-compatible' | 'anthropic';
  format: ApiFormat;
  /** Formats the kind's API also serves natively (`Provider.alsoSpeaks`). */
  alsoSpeaks?: readonly ApiFormat[];
  defaultBaseUrl?: string;
  /** Environment variable read for the key when the config names none. */
  defaultKeyEnv?: string;
  /** Whether the kind reports usage in streams only when `stream_options.include_usage` is sent. */
  supportsStreamOptions: boolean;
  /** The output-limit field for bodies translated from Anthropic; `max_tokens` unless the API demands otherwise. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Whose price list applies (the ledger's price catalogue reads it): a catalogue provider id; `self-hosted`
   * (the user's own hardware: nobody bills per token, $0 unless overridden); or `unknown` (a generic endpoint
   * could be anyone's: unpriced until configured, never matched to OpenAI by name).
   */
  billing: { catalogProvider: string } | 'self-hosted' | 'unknown';
  /**
   * Body members only this kind understands. A request the client wrote for it (OpenRouter's routing preferences)
   * that fails over to a provider of another kind leaves them out: they mean nothing there, or are rejected.
   */
  ownFields?: readonly string[];
}

/**
 * Every provider kind a config may name. The OpenAI-compatible vendors are configuration of one adapter, not
 * copies of it; adding a vendor is one line here. It sits in config/ because the schema names these kinds; the
 * adapters (providers/), the price catalogue (catalog/prices/) and dispatch read the same table from below.
 */
export const providerKinds = {
  'openai-compatible': { adapter: 'openai-compatible', format: 'openai-chat', supportsStreamOptions: true, billing: 'unknown' },
  openai: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    // Responses clients (Codex) reach OpenAI's own /v1/responses unchanged: hosted tools, encrypted reasoning,
    // `include`, and its stored conversations work as they do without the gateway.
    alsoSpeaks: ['openai-responses'],
    defaultBaseUrl: 'https://api.openai.com/v1',
    defaultKeyEnv: 'OPENAI_API_KEY',
    supportsStreamOptions: true,
    maxTokensField: 'max_completion_tokens',

    billing: { catalogProvider: 'openai' },
  },
  openrouter: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    defaultKeyEnv: 'OPENROUTER_API_KEY',
    supportsStreamOptions: true,
    billing: { catalogProvider: 'openrouter' },
    ownFields: ['provider', 'transforms', 'route'],
  },
  deepseek: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'https://api.deepseek.com/v1',
    defaultKeyEnv: 'DEEPSEEK_API_KEY',
    supportsStreamOptions: true,

    billing: { catalogProvider: 'deepseek' },
  },
  groq: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    defaultKeyEnv: 'GROQ_API_KEY',
    supportsStreamOptions: true,

    billing: { catalogProvider: 'groq' },
  },
  mistral: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    defaultKeyEnv: 'MISTRAL_API_KEY',
    supportsStreamOptions: false,

    billing: { catalogProvider: 'mistral' },
  },
  together: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'https://api.together.xyz/v1',
    defaultKeyEnv: 'TOGETHER_API_KEY',
    supportsStreamOptions: true,

    billing: { catalogProvider: 'together' },
  },
  'gemini-openai': {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    defaultKeyEnv: 'GEMINI_API_KEY',
    supportsStreamOptions: true,

    billing: { catalogProvider: 'google' },
  },
  ollama: {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'http://127.0.0.1:11434/v1',
    supportsStreamOptions: true,

    billing: 'self-hosted',
  },
  vllm: { adapter: 'openai-compatible', format: 'openai-chat', supportsStreamOptions: true, billing: 'self-hosted' },
  'llama-cpp': {
    adapter: 'openai-compatible',
    format: 'openai-chat',
    defaultBaseUrl: 'http://127.0.0.1:8080/v1',
    supportsStreamOptions: true,

    billing: 'self-hosted',
  },
  anthropic: {
    adapter: 'anthropic',
    format: 'anthropic-messages',
    defaultBaseUrl: 'https://api.anthropic.com',
    defaultKeyEnv: 'ANTHROPIC_API_KEY',
    supportsStreamOptions: false,

    billing: { catalogProvider: 'anthropic' },
  },
} as const satisfies Record<string, ProviderKindInfo>;

export type ProviderKind = keyof typeof providerKinds;
export const providerKindNames = Object.keys(providerKinds) as [ProviderKind, ...ProviderKind[]];

/** Members another kind owns (`ownFields`), which a body sent to a provider of `kind` must not carry. */
export function foreignFields(kind: string): string[] {
  return Object.entries(providerKinds as Record<string, ProviderKindInfo>).flatMap(([name, info]) => (name === kind ? [] : [...(info.ownFields ?? [])]));
}
