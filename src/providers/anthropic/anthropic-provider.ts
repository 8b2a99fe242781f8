import { HttpTransport } from '../http/http-transport.js';
import type { Provider, ProviderCall, ProviderConnectionSettings, ProviderResponse } from '../provider.js';
import { listedModelIds } from '../listed-models.js';

export type AnthropicSettings = ProviderConnectionSettings;

const defaultAnthropicVersion = '2023-06-01';

/** Anthropic's Messages API (and Anthropic-compatible servers). */
export class AnthropicProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly format = 'anthropic-messages' as const;
  readonly id: string;
  private readonly transport: HttpTransport;
  private readonly baseUrl: string;

  constructor(private readonly settings: AnthropicSettings) {
    this.id = settings.id;
    // Accept both `https://api.anthropic.com` and `https://api.anthropic.com/v1` as the base.
    this.baseUrl = settings.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.transport = new HttpTransport(settings.id, 'anthropic-messages', settings.connectTimeoutMs, settings.responseLimitBytes);
  }

  private headers(apiKey: string | undefined, forwarded: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'anthropic-version': forwarded['anthropic-version'] ?? defaultAnthropicVersion,
      ...this.settings.headers,
      ...extra,
    };
    if (forwarded['anthropic-beta']) headers['anthropic-beta'] = forwarded['anthropic-beta'];
    if (apiKey) headers['x-api-key'] = apiKey;
    return headers;
  }

  send(call: ProviderCall): Promise<ProviderResponse> {
    return this.transport.post({
      url: `${this.baseUrl}/v1/messages${call.forwardQuery ?? ''}`,
      headers: this.headers(call.apiKey, call.forwardHeaders, call.extraHeaders),
      body: call.body,
      stream: call.stream,
      signal: call.signal,
      timeouts: call.timeouts,
    });
  }

  async check(apiKey: string | undefined, signal: AbortSignal): Promise<string[] | undefined> {
    return listedModelIds(await this.transport.get(`${this.baseUrl}/v1/models`, this.headers(apiKey, {}), signal, 5_000));
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
