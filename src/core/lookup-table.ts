/**
 * A frozen table with no prototype, for lookups by a key a client chose (a path segment, a header). On a plain
 * object `table['constructor']`, `table['__proto__']` or `table['toString']` find Object's own members, so an
 * unknown name would be served by them instead of getting a 404.
 */
export function lookupTable<Value>(entries: Readonly<Record<string, Value>>): Readonly<Partial<Record<string, Value>>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, Value>, entries));
}
