import { describe, expect, it } from 'vitest';
import { configSchema } from './schema.js';
import { resolveStorageUrl, storageConfigSchema } from './storage.js';

describe('storage config', () => {
  it('defaults to sqlite', () => {
    expect(configSchema.parse({}).storage).toEqual({ kind: 'sqlite' });
  });

  it('fills cluster defaults around the two URLs', () => {
    expect(storageConfigSchema.parse({ kind: 'cluster', postgres_url: 'postgres://db/x', redis_url: 'redis://cache' })).toMatchObject({
      postgres_schema: 'hermes_router',
      redis_key_prefix: 'hermes-router:',
      resync_ms: 5_000,
    });
  });

  it('takes a URL from the environment, and wants exactly one source per server', () => {
    const storage = storageConfigSchema.parse({ kind: 'cluster', postgres_url_env: 'PG', redis_url: 'redis://cache' });
    expect(storage.kind === 'cluster' && resolveStorageUrl(storage.postgres_url, storage.postgres_url_env, { PG: 'postgres://secret@db/x' })).toBe(
      'postgres://secret@db/x',
    );
    expect(() => resolveStorageUrl(undefined, 'PG', {})).toThrow(/PG is not set/);
    expect(storageConfigSchema.safeParse({ kind: 'cluster', redis_url: 'redis://cache' }).success).toBe(false);
    expect(
      storageConfigSchema.safeParse({ kind: 'cluster', postgres_url: 'a', postgres_url_env: 'B', redis_url: 'redis://cache' }).success,
    ).toBe(false);
    expect(storageConfigSchema.safeParse({ kind: 'cluster', postgres_url: 'a', redis_url: 'b', extra: 1 }).success).toBe(false);
    expect(storageConfigSchema.safeParse({ kind: 'postgres' }).success).toBe(false);
  });
});
