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
import { createAnthropicToOpenAiStream } from '../wire/translate/anthropic-to-openai-stream.js';
import { createOpenAiToAnthropicStream } from '../wire/translate/openai-to-anthropic-stream.js';
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
  /** Model name to put in translated events. */
  model: string;
  /** The gateway added include_usage: the usage-only chunk is for the ledger, not the client. */
  hideUsageChunk: boolean;
  /** The OpenAI client asked for a usage chunk (matters when translating from Anthropic). */
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

function midStreamError(payload: JsonObject, event: SseEvent): GatewayError | undefined {
  if (event.event === 'error' || payload.type === 'error' || payload.error !== undefined) {
    const detail = isJsonObject(payload.error) ? payload.error : {};
    const message = typeof detail.message === 'string' ? detail.message : 'unknown error';
    return new GatewayError('stream_interrupted', `the provider failed mid-stream: ${message}`);
  }
  return undefined;
}

function openAiFinish(payload: JsonObject): boolean {
  const choices = payload.choices;
  return Array.isArray(choices) && choices.some((choice) => isJsonObject(choice) && choice.finish_reason != null);
}

function createHandler(options: RelayStreamOptions, usage: UsageAccumulator, emitter: ClientEmitter): EventHandler {
  let finished = false;
  if (options.providerFormat === options.clientFormat && options.clientFormat === 'openai-chat') {
    return {
      handle(event, payload) {
        usage.observe(payload);
        if (openAiFinish(payload)) finished = true;
        const choices = payload.choices;
        const usageOnly = Array.isArray(choices) && choices.length === 0 && payload.usage != null;
        if (!(usageOnly && options.hideUsageChunk)) emitter.emit(payload, event.data, undefined);
        return false;
      },
      close() {
        emitter.done();
      },
      finishSeen: () => finished,
    };
  }
  if (options.providerFormat === options.clientFormat) {
    let stopped = false;
    return {
      handle(event, payload) {
        usage.observe(payload);
        const type = typeof payload.type === 'string' ? payload.type : (event.event ?? 'message');
        if (type === 'message_delta' && isJsonObject(payload.delta) && payload.delta.stop_reason != null) finished = true;
        emitter.emit(payload, event.data, event.event ?? type);
        if (type === 'message_stop') {
          stopped = true;
          return true;
        }
        return false;
      },
      close() {
        // A provider that ended after the stop reason but without message_stop: finish the protocol for it.
        if (!stopped) emitter.emit({ type: 'message_stop' }, undefined, 'message_stop');
      },
      finishSeen: () => finished || stopped,
    };
  }
  if (options.providerFormat === 'anthropic-messages') {
    const translator = createAnthropicToOpenAiStream({ model: options.model, includeUsage: options.clientIncludeUsage });
    return {
      handle(_event, payload) {
        usage.observe(payload);
        if (payload.type === 'message_delta' && isJsonObject(payload.delta) && payload.delta.stop_reason != null) finished = true;
        for (const chunk of translator.push(payload)) emitter.emit(chunk, undefined, undefined);
        return payload.type === 'message_stop';
      },
      close() {
        for (const chunk of translator.finish()) emitter.emit(chunk, undefined, undefined);
        emitter.done();
      },
      finishSeen: () => finished,
    };
  }
  const translator = createOpenAiToAnthropicStream({ model: options.model });
  return {
    handle(_event, payload) {
      usage.observe(payload);
      if (openAiFinish(payload)) finished = true;
      for (const output of translator.push(payload)) emitter.emit(output.data, undefined, output.event);
      return false;
    },
    close() {
      for (const output of translator.finish()) emitter.emit(output.data, undefined, output.event);
    },
    finishSeen: () => finished,
  };
}

/**
 * Relays an upstream stream to the client, translating when the formats differ and capturing usage. The end
 * must be explicit: a clean end is the provider's sentinel ([DONE] / message_stop) or at least a finish reason
 * before EOF; anything else (reset, idle timeout, malformed chunk, EOF mid-answer) ends the client's stream with
 * an error event in its format — never a clean `[DONE]` or `message_stop`.
 */
export async function relayStream(options: RelayStreamOptions): Promise<RelayOutcome> {
  const providerWire = wireFormat(options.providerFormat);
  const usage = providerWire.createUsageAccumulator();
  const handler = createHandler(options, usage, options.emitter ?? writerEmitter(options.writer));
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
      if (handler.handle(event, payload)) {
        sentinel = true;
        break;
      }
      next = await options.rest.next();
    }
    if (!sentinel && !handler.finishSeen()) {
      throw new GatewayError('stream_interrupted', 'the provider ended the stream before the answer was complete');
    }
    handler.close();
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
      const clientWire = wireFormat(options.clientFormat);
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
 * connection on the next request.
 */
async function drainAfterSentinel(rest: AsyncIterator<SseEvent>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), 250);
  });
  try {
    for (let index = 0; index < 8; index += 1) {
      const next = await Promise.race([rest.next(), timeout]);
      if (next === 'timeout' || next.done) return;
    }
  } catch {
    // The answer is complete; a failure while draining only costs the connection.
  } finally {
    clearTimeout(timer);
  }
}

function asStreamError(caught: unknown): GatewayError {
  const error = toGatewayError(caught);
  if (error.errorClass === 'stream_interrupted' || error.errorClass === 'client_closed') return error;
  return new GatewayError('stream_interrupted', `the stream broke after it had started: ${error.message}`, { cause: error });
}
