import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isJsonObject, type JsonObject } from '../../core/json.js';

/** The shared fixtures folder next to the repository (`../shared`), found from this file, not from a fixed path. */
const sharedFixtures = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url));
export const recordingsDirectory = join(sharedFixtures, 'provider-recordings');
export const hermesRequestsDirectory = join(sharedFixtures, 'hermes/requests');

export function readJsonObject(path: string): JsonObject {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isJsonObject(parsed)) throw new Error(`${path} is not a JSON object`);
  return parsed;
}

/**
 * The events of a stream recording: one JSON payload per non-empty line (`*.chunks.txt`), or the `data:`
 * fields of a raw SSE body up to `[DONE]` (`*.sse`).
 */
export function readStreamRecording(path: string): JsonObject[] {
  const text = readFileSync(path, 'utf8');
  const lines = path.endsWith('.sse')
    ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length))
    : text.split('\n');
  const events: JsonObject[] = [];
  for (const line of lines) {
    if (line.trim().length === 0 || line.trim() === '[DONE]') continue;
    const parsed: unknown = JSON.parse(line);
    if (!isJsonObject(parsed)) throw new Error(`${path}: a line is not a JSON object`);
    events.push(parsed);
  }
  return events;
}

export function listRecordings(folder: string, suffix: string): string[] {
  return readdirSync(join(recordingsDirectory, folder))
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(recordingsDirectory, folder, name));
}

/** OpenAI-format streams: `openai/` and `openai-compatible/`, including the raw `.sse` body. */
export function openAiStreamRecordings(): string[] {
  return [
    ...listRecordings('openai', '.chunks.txt'),
    ...listRecordings('openai-compatible', '.chunks.txt'),
    ...listRecordings('openai-compatible', '.sse'),
  ];
}

export function anthropicStreamRecordings(): string[] {
  return listRecordings('anthropic', '.chunks.txt');
}
