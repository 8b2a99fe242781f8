import type { ApiFormat } from '../../../src/core/api-format.js';
import {
  anthropicEvent,
  hasRecordingFile,
  openAiDoneEvent,
  openAiEvent,
  readChunkLines,
  readRecording,
  recordingEntry,
  splitRawSse,
  type RecordingName,
} from '../recordings.js';
import { anthropicBody, anthropicEvents } from './synthesize-anthropic.js';
import { openAiBody, openAiChunks } from './synthesize-openai.js';
import { resolveSyntheticContent } from './synthetic-content.js';
import type { ReceivedRequest, RecordingBehaviour, ReplyShaping, SyntheticBehaviour } from './types.js';

/** A fully decided reply: either a whole body, or the SSE events to write one by one. */
export type ReplyPlan =
  | { type: 'body'; status: number; body: string }
  | { type: 'stream'; events: PlannedEvent[] };

export interface PlannedEvent {
  /** The exact SSE bytes of this event, separator included. */
  text: string;
  /** `data: [DONE]` or Anthropic `message_stop`: dropped by `omitTerminator`. */
  terminator: boolean;
}

type Payload = Record<string, unknown>;

const defaultRecording: Record<ApiFormat, RecordingName> = {
  'openai-chat': 'openai-text',
  'anthropic-messages': 'anthropic-text',
  // The fake serves only chat completions and Messages (Responses upstreams are faked in their own tests).
  'openai-responses': 'openai-text',
};

function isPayload(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Applies `omitUsage` / `rewriteModel` to one payload. Returns undefined when the payload should vanish
 * (the OpenAI usage-only chunk, which a provider not asked for usage never sends).
 */
function shapePayload(payload: Payload, format: ApiFormat, shaping: ReplyShaping, model: string | undefined): Payload | undefined {
  if (format === 'openai-chat') {
    if (shaping.omitUsage) {
      if (Array.isArray(payload['choices']) && payload['choices'].length === 0 && isPayload(payload['usage'])) {
        return undefined;
      }
      delete payload['usage'];
      const vendorExtras = payload['x_groq'];
      if (isPayload(vendorExtras)) delete vendorExtras['usage'];
    }
    if (shaping.rewriteModel && model !== undefined && 'model' in payload) payload['model'] = model;
    return payload;
  }
  const message = payload['type'] === 'message_start' ? payload['message'] : payload;
  if (isPayload(message)) {
    if (shaping.omitUsage) delete message['usage'];
    if (shaping.rewriteModel && model !== undefined && 'model' in message) message['model'] = model;
  }
  if (shaping.omitUsage && payload['type'] === 'message_delta') delete payload['usage'];
  return payload;
}

function needsShaping(shaping: ReplyShaping): boolean {
  return shaping.omitUsage === true || shaping.rewriteModel === true;
}

function eventFromPayload(format: ApiFormat, payload: string): PlannedEvent {
  if (format === 'openai-chat') return { text: openAiEvent(payload), terminator: false };
  const text = anthropicEvent(payload);
  return { text, terminator: text.startsWith('event: message_stop\n') };
}

function withOpenAiDone(format: ApiFormat, events: PlannedEvent[]): PlannedEvent[] {
  return format === 'openai-chat' ? [...events, { text: openAiDoneEvent, terminator: true }] : events;
}

/** Re-serialises one payload line only when shaping asks for it, so recorded bytes stay exact otherwise. */
function shapeLine(line: string, format: ApiFormat, shaping: ReplyShaping, model: string | undefined): string | undefined {
  if (!needsShaping(shaping)) return line;
  const parsed: unknown = JSON.parse(line);
  if (!isPayload(parsed)) return line;
  const shaped = shapePayload(parsed, format, shaping, model);
  return shaped === undefined ? undefined : JSON.stringify(shaped);
}

function rawSseEvents(name: RecordingName, shaping: ReplyShaping, model: string | undefined): PlannedEvent[] {
  const events: PlannedEvent[] = [];
  for (const text of splitRawSse(readRecording(name, 'sse'))) {
    const dataPrefix = 'data: ';
    const isDone = text.startsWith('data: [DONE]');
    if (isDone || !text.startsWith(dataPrefix) || !needsShaping(shaping)) {
      events.push({ text, terminator: isDone });
      continue;
    }
    const shaped = shapeLine(text.slice(dataPrefix.length).trimEnd(), 'openai-chat', shaping, model);
    if (shaped !== undefined) events.push({ text: openAiEvent(shaped), terminator: false });
  }
  return events;
}

function requestedUsage(request: ReceivedRequest): boolean {
  const json = request.json;
  if (typeof json !== 'object' || json === null || !('stream_options' in json)) return false;
  const streamOptions = json.stream_options;
  return (
    typeof streamOptions === 'object' &&
    streamOptions !== null &&
    'include_usage' in streamOptions &&
    streamOptions.include_usage === true
  );
}

/** Folds `usageOnlyIfRequested` into `omitUsage` for this request. */
function effectiveShaping<Shaping extends ReplyShaping>(
  shaping: Shaping,
  format: ApiFormat,
  request: ReceivedRequest,
  stream: boolean,
): Shaping {
  const dropUsage =
    shaping.usageOnlyIfRequested === true && format === 'openai-chat' && stream && !requestedUsage(request);
  return dropUsage ? { ...shaping, omitUsage: true } : shaping;
}

export function planRecording(requested: RecordingBehaviour, format: ApiFormat, request: ReceivedRequest): ReplyPlan {
  const recordingFormat = recordingEntry(requested.name ?? defaultRecording[format]).format;
  const behaviour = effectiveShaping(requested, recordingFormat, request, requested.stream ?? request.stream);
  const name = behaviour.name ?? defaultRecording[format];
  const entry = recordingEntry(name);
  const stream = behaviour.stream ?? request.stream;
  const model = request.model;
  if (stream && hasRecordingFile(name, 'sse')) return { type: 'stream', events: rawSseEvents(name, behaviour, model) };
  if (stream && hasRecordingFile(name, 'chunks')) {
    const events: PlannedEvent[] = [];
    for (const line of readChunkLines(name)) {
      const shaped = shapeLine(line, entry.format, behaviour, model);
      if (shaped !== undefined) events.push(eventFromPayload(entry.format, shaped));
    }
    return { type: 'stream', events: withOpenAiDone(entry.format, events) };
  }
  if (!hasRecordingFile(name, 'json')) {
    throw new Error(`recording ${name} has no ${stream ? 'stream' : 'JSON body'}; pass stream: ${!stream}`);
  }
  let body = readRecording(name, 'json');
  if (needsShaping(behaviour)) {
    const parsed: unknown = JSON.parse(body);
    if (isPayload(parsed)) body = JSON.stringify(shapePayload(parsed, entry.format, behaviour, model), null, 2);
  }
  return { type: 'body', status: behaviour.status ?? entry.status ?? 200, body };
}

export function planSynthetic(
  requested: SyntheticBehaviour,
  format: ApiFormat,
  request: ReceivedRequest,
  sequence: number,
): ReplyPlan {
  const behaviour = effectiveShaping(requested, format, request, requested.stream ?? request.stream);
  const isOpenAi = format === 'openai-chat';
  const content = resolveSyntheticContent(behaviour, request.model, request.body, isOpenAi ? 'call_' : 'toolu_');
  const responseId = isOpenAi ? `chatcmpl-fake${sequence}` : `msg_fake${sequence}`;
  if (behaviour.stream ?? request.stream) {
    const payloads = isOpenAi ? openAiChunks(content, responseId) : anthropicEvents(content, responseId);
    const events: PlannedEvent[] = [];
    for (const payload of payloads) {
      const shaped = shapePayload(payload, format, behaviour, request.model);
      if (shaped !== undefined) events.push(eventFromPayload(format, JSON.stringify(shaped)));
    }
    return { type: 'stream', events: withOpenAiDone(format, events) };
  }
  const body = isOpenAi ? openAiBody(content, responseId) : anthropicBody(content, responseId);
  return { type: 'body', status: 200, body: JSON.stringify(shapePayload(body, format, behaviour, request.model)) };
}

/** An event whose data line is cut mid-JSON, as a broken proxy or provider bug would produce. */
export function malformedEvent(format: ApiFormat): PlannedEvent {
  const text =
    format === 'openai-chat'
      ? 'data: {"id":"chatcmpl-malformed","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"unterminated\n\n'
      : 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"unterminated\n\n';
  return { text, terminator: false };
}
