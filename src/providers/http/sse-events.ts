import { createParser } from 'eventsource-parser';
import type { GatewayError } from '../../core/errors.js';
import type { SseEvent } from '../provider.js';

/**
 * Turns a byte stream into server-sent events with a real SSE parser. Network chunk boundaries never matter.
 * Errors of the byte stream (reset, idle timeout) propagate to the consumer through the iterator. A stream is
 * relayed event by event, so its total length is free; what the parser holds is the event being received, and
 * that is bounded: more than `eventLimitBytes` without an event ending throws `tooLarge()`.
 */
export async function* sseEvents(
  body: AsyncIterable<Uint8Array | string>,
  eventLimitBytes = Number.POSITIVE_INFINITY,
  tooLarge?: () => GatewayError,
): AsyncGenerator<SseEvent> {
  const pending: SseEvent[] = [];
  const parser = createParser({
    onEvent(event) {
      pending.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data });
    },
  });
  const decoder = new TextDecoder();
  let sinceLastEvent = 0;
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    // An upper bound of what the parser holds: the bytes fed since it last finished an event.
    sinceLastEvent += text.length;
    parser.feed(text);
    if (pending.length > 0) sinceLastEvent = text.length - text.lastIndexOf('\n') - 1;
    if (sinceLastEvent > eventLimitBytes && tooLarge) throw tooLarge();
    while (pending.length > 0) yield pending.shift() as SseEvent;
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift() as SseEvent;
}
