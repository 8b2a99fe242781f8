import type { ApiFormat } from '../core/api-format.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';
import { redactJson } from '../core/redact.js';
import type { SseEvent } from '../providers/provider.js';
import type { EventWriter } from '../wire/event-writer.js';
import type { ClientEmitter } from '../wire/client-emitter.js';
import { writerEmitter } from '../wire/client-emitter.js';
import { wireFormat } from '../wire/formats.js';
import { createStreamTranslation, type TranslationContext } from '../wire/translate/translation.js';
import type { UsageAccumulator } from '../wire/usage-accumulator.js';
import type { RelayOutcome } from './stream-outcome.js';

export interface RelayStreamOptions {
  providerFormat: ApiFormat;
  clientFormat: ApiFormat;
  first: SseEvent;
  rest: AsyncIterator<SseEvent>;
  writer: EventWriter;
  /** Where client-format events go; defaults to the writer. Recovery filters plug in here. */
  emitter?: ClientEmitter;
  /**
   * A continuation of a response already under way (after a request_toolset re-issue): the writer is not ended
   * when this upstream stream ends cleanly, and the caller decides what follows.
   */
  keepOpen?: boolean;
  /** What a translation needs to know about the client's request (model, ids, the body it echoes). */
  translation: TranslationContext;
  /** The gateway added include_usage: the usage-only chunk is for the ledger, not the client. */
  hideUsageChunk: boolean;
  /** The chat client asked for a usage chunk (matters when translating from another format). */
  clientIncludeUsage: boolean;
  signal: AbortSignal;
}

/** What one upstream event turns into for the client, per (provider format, client format) pair. */
interface EventHandler {
  /** Returns true when the upstream signalled the end of the stream. */
  handle(event: SseEvent, payload: JsonObject): boolean;
  /** The upstream stream ended (sentinel or EOF) after a clean finish: close what is open. */
  close(): void;
  finishSeen(): boolean;
}

function parsePayload(event: SseEvent): JsonObject {
  let payload: unknown;
  try {
    payload = JSON.parse(event.data);
  } catch {
    throw new GatewayError('stream_interrupted', 'the provider sent a malformed stream chunk; the response is incomplete');
  }
  if (!isJsonObject(payload)) throw new GatewayError('stream_interrupted', 'the provider sent a malformed stream chunk');
  return payload;
}

/** A failure the provider reported inside its stream: an `error` event or member, or a failed response. */
function midStreamError(payload: JsonObject, event: SseEvent): GatewayError | undefined {
  const failedResponse = payload.type === 'response.failed' && isJsonObject(payload.response) ? payload.response : undefined;
  if (event.event === 'error' || payload.type === 'error' || payload.error !== undefined || failedResponse !== undefined) {
    const detail = isJsonObject(payload.error) ? payload.error : isJsonObject(failedResponse?.error) ? failedResponse.error : payload;
    const message = typeof detail.message === 'string' ? detail.message : 'unknown error';
    return new GatewayError('stream_interrupted', `the provider failed mid-stream: ${message}`);
  }
  return undefined;
}

/**
 * Relays an upstream stream to the client, translating when the formats differ and capturing usage. The end
 * must be explicit: a clean end is the provider's sentinel ([DONE] / message_stop) or at least a finish reason
 * before EOF; anything else (reset, idle timeout, malformed chunk, EOF mid-answer) ends the client's stream with
 * an error event in its format — never a clean `[DONE]` or `message_stop`.
 */
export async function relayStream(options: RelayStreamOptions): Promise<RelayOutcome> {
  const providerWire = wireFormat(options.providerFormat);
  const clientWire = wireFormat(options.clientFormat);
  const usage = providerWire.createUsageAccumulator();
  const emitter = options.emitter ?? writerEmitter(options.writer);
  // Undefined when the client speaks the provider's format: its events then pass through as they came.
  const translation = createStreamTranslation(options.providerFormat, options.clientFormat, options.translation, { includeUsage: options.clientIncludeUsage });
  let finished = false;
  let ended = false;
  let responseText = '';
  let sentinel = false;
  try {
    let next: IteratorResult<SseEvent> = { done: false, value: options.first };
    while (!next.done) {
      const event = next.value;
      if (event.data === '[DONE]') {
        sentinel = true;
        break;
      }
      const payload = parsePayload(event);
      const failure = midStreamError(payload, event);
      if (failure) throw failure;
      responseText += providerWire.streamEventText(payload);
      usage.observe(payload);
      const state = providerWire.streamEventState(payload);
      if (state !== undefined) finished = true;
      if (translation !== undefined) {
        for (const output of translation.push(payload)) emitter.emit(output.payload, undefined, output.eventName);
      } else if (!(options.hideUsageChunk && providerWire.usageOnlyEvent(payload))) {
        emitter.emit(payload, event.data, event.event ?? providerWire.streamEventName(payload));
      }
      if (state === 'ended') {
        ended = true;
        sentinel = true;
        break;
      }
      next = await options.rest.next();
    }
    if (!sentinel && !finished) {
      throw new GatewayError('stream_interrupted', 'the provider ended the stream before the answer was complete');
    }
    // The client's stream is closed in its own terms: what a translation still holds, the terminal event a
    // same-format provider left out, and the sentinel of formats that have one (`[DONE]`).
    const closing = translation !== undefined ? translation.finish() : ended ? [] : providerWire.closingEvents();
    for (const output of closing) emitter.emit(output.payload, undefined, output.eventName);
    if (clientWire.streamEndData !== undefined) emitter.done();
    if (!options.keepOpen) options.writer.end();
    const upstreamEndedAt = Date.now();
    // After the client has its answer: a provider that lingers after the sentinel delays nobody.
    if (sentinel) await drainAfterSentinel(options.rest);
    return { usage: usage.result(), completed: true, upstreamEndedAt, responseText };
  } catch (caught) {
    const error = options.signal.aborted
      ? new GatewayError('client_closed', 'the client closed the connection mid-stream')
      : asStreamError(caught);
    if (error.errorClass !== 'client_closed') {
      options.writer.writeJson(redactJson(clientWire.errorBody(error)), clientWire.errorEventName);
    }
    options.writer.end();
    return { usage: usage.result(), completed: false, error, upstreamEndedAt: Date.now(), responseText };
  } finally {
    // Not awaited: with a read still pending (a lingering provider), return() would wait for it; the
    // generator's own cleanup releases the connection either way.
    void options.rest.return?.().catch(() => undefined);
  }
}

/**
 * After the sentinel the provider's body normally ends at once. Reading it to the end (briefly) lets the
 * connection return to the keep-alive pool; abandoning the iterator would destroy the socket and cost a new
 * connection on the next request. The end has almost always arrived with the sentinel, so each read first gets
 * one turn of the event loop; only a provider that lingers past that costs a timer (a 250 ms timer set and
 * cleared on every streamed request was a measurable share of the relay's CPU).
 */
async function drainAfterSentinel(rest: AsyncIterator<SseEvent>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let deadline: Promise<'timeout'> | undefined;
  const lingerLimit = () =>
    (deadline ??= new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), 250);
    }));
  try {
    for (let index = 0; index < 8; index += 1) {
      const read = rest.next();
      let next: IteratorResult<SseEvent> | 'later' | 'timeout' = await Promise.race([read, nextTurn()]);
      if (next === 'later') next = await Promise.race([read, lingerLimit()]);
      if (next === 'timeout' || next.done) return;
    }
  } catch {
    // The answer is complete; a failure while draining only costs the connection.
  } finally {
    clearTimeout(timer);
  }
}

function nextTurn(): Promise<'later'> {
  return new Promise((resolve) => setImmediate(resolve, 'later'));
}

function asStreamError(caught: unknown): GatewayError {
  const error = toGatewayError(caught);
  if (error.errorClass === 'stream_interrupted' || error.errorClass === 'client_closed') return error;
  return new GatewayError('stream_interrupted', `the stream broke after it had started: ${error.message}`, { cause: error });
}
