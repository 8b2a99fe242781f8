import type { ProviderConfig } from '../config/schema.js';
import type { ApiFormat } from '../core/api-format.js';
import { ConfigError } from '../config/config-error.js';
import { AnthropicProvider } from './anthropic/anthropic-provider.js';
import { providerKinds } from '../config/provider-kinds.js';
import type { ProviderKindInfo } from '../config/provider-kinds.js';
import { OpenAiCompatibleProvider } from './openai-compatible/openai-compatible-provider.js';
import type { Provider, ProviderConnectionSettings } from './provider.js';

interface FactorySettings extends ProviderConnectionSettings {
  alsoSpeaks?: readonly ApiFormat[];
}

/** Adapter id → factory. Adding an adapter is one folder and one line here. */
const adapterFactories = {
  'openai-compatible': (settings: FactorySettings) => new OpenAiCompatibleProvider(settings),
  anthropic: (settings: FactorySettings) => new AnthropicProvider(settings),
} as const satisfies Record<ProviderKindInfo['adapter'], (settings: FactorySettings) => Provider>;

export function createProvider(config: ProviderConfig, connectTimeoutMs: number, index: number, responseLimitBytes?: number): Provider {
  const kind: ProviderKindInfo = providerKinds[config.kind];
  const baseUrl = config.base_url ?? kind.defaultBaseUrl;
  if (!baseUrl) {
    throw new ConfigError('the providers section', [
      `providers[${index}].base_url: required for kind "${config.kind}" (e.g. http://127.0.0.1:8000/v1)`,
    ]);
  }
  return adapterFactories[kind.adapter]({
    id: config.id,
    baseUrl,
    headers: config.headers,
    connectTimeoutMs,
    ...(responseLimitBytes === undefined ? {} : { responseLimitBytes }),
    ...(kind.alsoSpeaks === undefined ? {} : { alsoSpeaks: kind.alsoSpeaks }),
  });
}
