import type { ProviderConfig } from '../config/schema.js';
import { rememberSecrets } from '../core/known-secrets.js';
import { providerKinds } from '../config/provider-kinds.js';
import type { ProviderKindInfo } from '../config/provider-kinds.js';

/**
 * The API keys a provider's config names, in order: `api_key`, `api_keys`, then the environment variable
 * (`api_key_env`, or the kind's default when the config names no key), which may hold several keys separated
 * by commas, as free-tier users stack them. Empty for a keyless server. Every value is remembered as a secret.
 */
export function configuredKeys(provider: ProviderConfig, env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  if (provider.api_key) values.push(provider.api_key);
  if (provider.api_keys) values.push(...provider.api_keys);
  const kind: ProviderKindInfo = providerKinds[provider.kind];
  const keyEnv = provider.api_key_env ?? (values.length === 0 ? kind.defaultKeyEnv : undefined);
  const fromEnvironment = keyEnv ? env[keyEnv] : undefined;
  if (fromEnvironment) values.push(...fromEnvironment.split(',').map((key) => key.trim()).filter(Boolean));
  // Whatever their shape, these may never leave in an error, a ledger row or a log line.
  rememberSecrets(values);
  return values;
}
