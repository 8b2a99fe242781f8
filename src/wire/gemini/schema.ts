import { isJsonObject } from '../../core/json.js';

/**
 * A Gemini schema (OpenAPI subset, types in capitals: `OBJECT`, `STRING`) → JSON Schema (lower-case types), at
 * every depth. A `parametersJsonSchema` is JSON Schema already and passes through this unchanged.
 */
export function geminiSchemaToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchemaToJsonSchema);
  if (!isJsonObject(schema)) return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') converted[key] = value.toLowerCase();
    else if (key === 'type' && Array.isArray(value)) converted[key] = value.map((entry) => (typeof entry === 'string' ? entry.toLowerCase() : entry));
    else converted[key] = geminiSchemaToJsonSchema(value);
  }
  return converted;
}
