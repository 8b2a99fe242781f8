import type { Provider, ProviderCall, ProviderResponse } from '../../providers/provider.js';
import { HttpTransport } from '../../providers/http/http-transport.js';
import { listedModelIds } from '../../providers/listed-models.js';

/**
 * An OpenAI-compatible `/embeddings` endpoint behind the chat `Provider` interface, so embeddings reuse the
 * attempt loop: the same key rotation, cooldowns, circuit breakers, switches and failover as chat.
 */
export class EmbeddingsProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly format = 'openai-chat' as const;
  private readonly transport: HttpTransport;
  private readonly baseUrl: string;

  constructor(
    readonly id: string,
    baseUrl: string,
    private readonly headers: Record<string, string>,
    connectTimeoutMs: number,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.transport = new HttpTransport(id, 'openai-chat', connectTimeoutMs);
  }

  private requestHeaders(apiKey: string | undefined): Record<string, string> {
    return apiKey ? { ...this.headers, authorization: `Bearer ${apiKey}` } : { ...this.headers };
  }

  send(call: ProviderCall): Promise<ProviderResponse> {
    return this.transport.post({
      url: `${this.baseUrl}/embeddings`,
      headers: this.requestHeaders(call.apiKey),
      body: call.body,
      stream: false,
      signal: call.signal,
      timeouts: call.timeouts,
    });
  }

  async check(apiKey: string | undefined, signal: AbortSignal): Promise<string[] | undefined> {
    return listedModelIds(await this.transport.get(`${this.baseUrl}/models`, this.requestHeaders(apiKey), signal, 5_000));
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
