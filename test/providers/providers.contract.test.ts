import type { ProviderConfig } from '../../src/config/schema.js';
import { AnthropicProvider } from '../../src/providers/anthropic/anthropic-provider.js';
import { providerKinds } from '../../src/config/provider-kinds.js';
import { OpenAiCompatibleProvider } from '../../src/providers/openai-compatible/openai-compatible-provider.js';
import { createProvider } from '../../src/providers/registry.js';
import { type ContractSubject, describeProviderContract } from './provider-contract.js';

const bearer = (key: string): [string, string] => ['authorization', `Bearer ${key}`];
const anthropicKey = (key: string): [string, string] => ['x-api-key', key];

// Every adapter, built directly.
describeProviderContract({
  name: 'openai-compatible adapter',
  format: 'openai-chat',
  create: (url) => new OpenAiCompatibleProvider({ id: 'contract-openai', baseUrl: `${url}/v1`, headers: {}, connectTimeoutMs: 5_000 }),
  path: '/v1/chat/completions',
  keyHeader: bearer,
  recordings: 'all',
});
describeProviderContract({
  name: 'anthropic adapter',
  format: 'anthropic-messages',
  create: (url) => new AnthropicProvider({ id: 'contract-anthropic', baseUrl: url, headers: {}, connectTimeoutMs: 5_000 }),
  path: '/v1/messages',
  keyHeader: anthropicKey,
  recordings: 'all',
});

// Every provider kind a config may name, built the way the gateway builds it (the registry), so a kind wired
// to the wrong adapter or format fails here.
for (const [kind, info] of Object.entries(providerKinds)) {
  const subject: ContractSubject = {
    name: `kind ${kind} (registry)`,
    format: info.format,
    create: (url) => {
      const config = {
        id: `contract-${kind}`,
        kind,
        // The Anthropic adapter accepts its base with or without `/v1`; the OpenAI-compatible one needs it.
        base_url: `${url}/v1`,
        models: 'auto',
        headers: {},
        key_rotation: 'round-robin',
        enabled: true,
      } as ProviderConfig;
      return createProvider(config, 5_000, 0);
    },
    path: info.adapter === 'anthropic' ? '/v1/messages' : '/v1/chat/completions',
    keyHeader: info.adapter === 'anthropic' ? anthropicKey : bearer,
    recordings: 'one of each',
  };
  describeProviderContract(subject);
}
