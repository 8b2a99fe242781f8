/** What a key may do. `admin` on an application key allows reading the admin API, never changing it. */
export const scopes = ['chat', 'embeddings', 'models:read', 'admin'] as const;
export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** The scopes a new key gets when its creator names none: a client of the model APIs. */
export const defaultScopes: readonly Scope[] = ['chat', 'embeddings', 'models:read'];
