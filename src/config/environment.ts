import type { ConfigInput } from './schema.js';

/**
 * Environment variables that override the config file (documented in the README). Flags override these.
 * Returns a partial config merged over the file's.
 */
export const environmentVariables = {
  HERMES_ROUTER_HOST: 'server.host',
  HERMES_ROUTER_PORT: 'server.port',
  HERMES_ROUTER_BODY_LIMIT_BYTES: 'server.body_limit_bytes',
  HERMES_ROUTER_DEFAULT_MODEL: 'default_model',
  HERMES_ROUTER_LOG_LEVEL: 'logging.level',
  HERMES_ROUTER_LOG_FORMAT: 'logging.format',
} as const;

function integerFrom(name: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

export function applyEnvironment(input: ConfigInput, env: NodeJS.ProcessEnv): ConfigInput {
  const server = { ...(input.server ?? {}) };
  const result: ConfigInput = { ...input };
  if (env.HERMES_ROUTER_HOST) server.host = env.HERMES_ROUTER_HOST;
  if (env.HERMES_ROUTER_PORT) server.port = integerFrom('HERMES_ROUTER_PORT', env.HERMES_ROUTER_PORT);
  if (env.HERMES_ROUTER_BODY_LIMIT_BYTES) {
    server.body_limit_bytes = integerFrom('HERMES_ROUTER_BODY_LIMIT_BYTES', env.HERMES_ROUTER_BODY_LIMIT_BYTES);
  }
  result.server = server;
  if (env.HERMES_ROUTER_DEFAULT_MODEL) result.default_model = env.HERMES_ROUTER_DEFAULT_MODEL;
  if (env.HERMES_ROUTER_LOG_LEVEL || env.HERMES_ROUTER_LOG_FORMAT) {
    type Logging = NonNullable<ConfigInput['logging']>;
    result.logging = {
      ...(input.logging ?? {}),
      ...(env.HERMES_ROUTER_LOG_LEVEL ? { level: env.HERMES_ROUTER_LOG_LEVEL as Logging['level'] } : {}),
      ...(env.HERMES_ROUTER_LOG_FORMAT ? { format: env.HERMES_ROUTER_LOG_FORMAT as Logging['format'] } : {}),
    };
  }
  return result;
}
