import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ApiFormat } from '../../src/core/api-format.js';

/**
 * Recorded provider responses (vercel/ai, Apache-2.0; see test/fixtures/provider-recordings/README.md) and the
 * exact rules for turning them back into wire bytes.
 */

type RecordingFile = 'json' | 'chunks' | 'sse';

interface RecordingEntry {
  format: ApiFormat;
  /** Path under test/fixtures/provider-recordings/, without the extension. */
  path: string;
  files: readonly RecordingFile[];
  /** Set for recorded error bodies, whose status was not recorded (both providers send these as 400). */
  status?: number;
}

export const recordings = {
  'openai-text': { format: 'openai-chat', path: 'openai/openai-text', files: ['json', 'chunks'] },
  'issue-15789-step-1': { format: 'openai-chat', path: 'openai/issue-15789-step-1', files: ['chunks'] },
  'azure-model-router': { format: 'openai-chat', path: 'openai/azure-model-router.1', files: ['chunks'] },
  'reasoning-model-legacy-parameter-error': {
    format: 'openai-chat',
    path: 'openai/reasoning-model-legacy-parameter-error',
    files: ['json'],
    status: 400,
  },
  'xai-tool-call': { format: 'openai-chat', path: 'openai-compatible/xai-tool-call', files: ['json', 'chunks'] },
  'deepseek-tool-call': {
    format: 'openai-chat',
    path: 'openai-compatible/deepseek-tool-call',
    files: ['json', 'chunks'],
  },
  'groq-tool-call': { format: 'openai-chat', path: 'openai-compatible/groq-tool-call', files: ['chunks'] },
  'alibaba-tool-call': { format: 'openai-chat', path: 'openai-compatible/alibaba-tool-call', files: ['chunks'] },
  'anthropic-fallback-tool-call': {
    format: 'openai-chat',
    path: 'openai-compatible/anthropic-fallback-tool-call',
    files: ['sse'],
  },
  'anthropic-text': { format: 'anthropic-messages', path: 'anthropic/anthropic-text', files: ['json', 'chunks'] },
  'anthropic-json-tool': { format: 'anthropic-messages', path: 'anthropic/anthropic-json-tool.1', files: ['json'] },
  'anthropic-tool-no-args': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-tool-no-args',
    files: ['chunks'],
  },
  'anthropic-issue-15652-false': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-issue-15652-false',
    files: ['chunks'],
  },
  'anthropic-clear-thinking': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-clear-thinking.1',
    files: ['chunks'],
  },
  'issue-13430-thinking-tool-call': {
    format: 'anthropic-messages',
    path: 'anthropic/issue-13430-thinking-tool-call',
    files: ['json'],
  },
  'anthropic-issue-5942-cache-write': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-issue-5942-cache-write',
    files: ['chunks'],
  },
  'anthropic-issue-5942-cache-read': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-issue-5942-cache-read',
    files: ['chunks'],
  },
  'anthropic-message-delta-input-tokens': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-message-delta-input-tokens',
    files: ['chunks'],
  },
  'duplicate-message-start': {
    format: 'anthropic-messages',
    path: 'anthropic/duplicate-message-start',
    files: ['chunks'],
  },
  'anthropic-refusal': { format: 'anthropic-messages', path: 'anthropic/anthropic-refusal', files: ['chunks'] },
  'anthropic-parallel-provider-client-tools-error': {
    format: 'anthropic-messages',
    path: 'anthropic/anthropic-parallel-provider-client-tools.error',
    files: ['json'],
    status: 400,
  },
} as const satisfies Record<string, RecordingEntry>;

export type RecordingName = keyof typeof recordings;

export const recordingNames = Object.keys(recordings) as RecordingName[];

const fixturesDirectory = fileURLToPath(new URL('../fixtures/provider-recordings/', import.meta.url));

const extensions: Record<RecordingFile, string> = { json: '.json', chunks: '.chunks.txt', sse: '.sse' };

const cache = new Map<string, string>();

export function recordingEntry(name: RecordingName): RecordingEntry {
  return recordings[name];
}

export function hasRecordingFile(name: RecordingName, file: RecordingFile): boolean {
  const files: readonly RecordingFile[] = recordings[name].files;
  return files.includes(file);
}

/** The raw bytes of one recording file, as text. */
export function readRecording(name: RecordingName, file: RecordingFile): string {
  if (!hasRecordingFile(name, file)) {
    throw new Error(`recording ${name} has no ${file} file (it has: ${recordings[name].files.join(', ')})`);
  }
  const path = fixturesDirectory + recordings[name].path + extensions[file];
  let text = cache.get(path);
  if (text === undefined) {
    text = readFileSync(path, 'utf8');
    cache.set(path, text);
  }
  return text;
}

/** The non-empty payload lines of a `.chunks.txt` recording, in order. */
export function readChunkLines(name: RecordingName): string[] {
  return readRecording(name, 'chunks')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** One OpenAI-format SSE event: a data line and the blank line that ends it. */
export function openAiEvent(payload: string): string {
  return `data: ${payload}\n\n`;
}

export const openAiDoneEvent = 'data: [DONE]\n\n';

/** One Anthropic SSE event; the event name is the payload's `type`, as Anthropic's wire format does. */
export function anthropicEvent(payload: string): string {
  const parsed: unknown = JSON.parse(payload);
  const type =
    typeof parsed === 'object' && parsed !== null && 'type' in parsed && typeof parsed.type === 'string'
      ? parsed.type
      : 'unknown';
  return `event: ${type}\ndata: ${payload}\n\n`;
}

/**
 * Splits a raw SSE body into its events, each keeping its separator, so that joining them gives back the
 * exact bytes while the fake can still write (and fault) event by event.
 */
export function splitRawSse(body: string): string[] {
  const events: string[] = [];
  let start = 0;
  while (start < body.length) {
    const end = body.indexOf('\n\n', start);
    if (end === -1) {
      events.push(body.slice(start));
      break;
    }
    events.push(body.slice(start, end + 2));
    start = end + 2;
  }
  return events;
}

/** The full SSE body a provider would send for a streaming recording, exactly as the fixture README says. */
export function recordedStreamBody(name: RecordingName): string {
  if (hasRecordingFile(name, 'sse')) return readRecording(name, 'sse');
  const lines = readChunkLines(name);
  if (recordings[name].format === 'openai-chat') return lines.map(openAiEvent).join('') + openAiDoneEvent;
  return lines.map(anthropicEvent).join('');
}
