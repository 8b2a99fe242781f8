import type { ApiFormat } from '../../core/api-format.js';
import type { JsonObject } from '../../core/json.js';
import { HttpTransport } from '../http/http-transport.js';
import type { Provider, ProviderCall, ProviderConnectionSettings, ProviderResponse } from '../provider.js';
import { listedModelIds } from '../listed-models.js';

export interface OpenAiCompatibleSettings extends ProviderConnectionSettings {
  /** Formats served beside chat completions (`responses`: OpenAI's `/responses`). */
  alsoSpeaks?: readonly ApiFormat[];
  /** Named hooks vendors may set instead of subclassing. */
  hooks?: {
    /** Adjust the body just before it is sent (e.g. a vendor that rejects a standard field). */
    prepareBody?: (body: JsonObject) => JsonObject;
  };
}

/** The endpoint of each format an OpenAI-style API serves, under its base URL. */
const endpointPaths: Partial<Record<ApiFormat, string>> = {
  'openai-chat': '/chat/completions',
  'openai-responses': '/responses',
};

/**
 * The one adapter for every server that speaks OpenAI chat completions (OpenAI, OpenRouter, DeepSeek, Groq,
 * Mistral, Together, Gemini's OpenAI endpoint, vLLM, llama.cpp, Ollama): they differ only in configuration.
 */
export class OpenAiCompatibleProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly format = 'openai-chat' as const;
  readonly alsoSpeaks: readonly ApiFormat[];
  readonly id: string;
  private readonly transport: HttpTransport;
  private readonly baseUrl: string;

  constructor(private readonly settings: OpenAiCompatibleSettings) {
    this.id = settings.id;
    this.alsoSpeaks = settings.alsoSpeaks ?? [];
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '');
    this.transport = new HttpTransport(settings.id, 'openai-chat', settings.connectTimeoutMs, settings.responseLimitBytes);
  }

  /** The provider's configured headers, a model entry's over them, and the key last (no header replaces it). */
  private headers(apiKey: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
    return apiKey ? { ...this.settings.headers, ...extra, authorization: `Bearer ${apiKey}` } : { ...this.settings.headers, ...extra };
  }

  send(call: ProviderCall): Promise<ProviderResponse> {
    const body = this.settings.hooks?.prepareBody ? this.settings.hooks.prepareBody(call.body) : call.body;
    return this.transport.post({
      url: `${this.baseUrl}${endpointPaths[call.format ?? this.format] ?? endpointPaths[this.format]}`,
      headers: this.headers(call.apiKey, call.extraHeaders),
      body,
      stream: call.stream,
      signal: call.signal,
      timeouts: call.timeouts,
      ...(call.format === undefined ? {} : { format: call.format }),
    });
  }

  async check(apiKey: string | undefined, signal: AbortSignal): Promise<string[] | undefined> {
    return listedModelIds(await this.transport.get(`${this.baseUrl}/models`, this.headers(apiKey), signal, 5_000));
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
