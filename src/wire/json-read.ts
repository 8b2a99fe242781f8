import { isJsonObject, type JsonObject } from '../core/json.js';

/** Small, allocation-free readers for unvalidated JSON: each returns undefined instead of throwing. */

export function readString(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

export function readNumber(object: JsonObject, key: string): number | undefined {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function readObject(object: JsonObject, key: string): JsonObject | undefined {
  const value = object[key];
  return isJsonObject(value) ? value : undefined;
}

export function readArray(object: JsonObject, key: string): unknown[] | undefined {
  const value = object[key];
  return Array.isArray(value) ? value : undefined;
}

/** The objects of an array field, skipping anything else (wire arrays are read leniently after decode). */
export function readObjects(object: JsonObject, key: string): JsonObject[] {
  const value = object[key];
  if (!Array.isArray(value)) return [];
  const objects: JsonObject[] = [];
  for (const item of value) if (isJsonObject(item)) objects.push(item);
  return objects;
}

/** Parses a JSON object out of a string; anything else (invalid JSON, arrays, scalars) gives undefined. */
export function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
