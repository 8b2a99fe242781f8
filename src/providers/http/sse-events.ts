import { createParser } from 'eventsource-parser';
import type { SseEvent } from '../provider.js';

/**
 * Turns a byte stream into server-sent events with a real SSE parser. Network chunk boundaries never matter.
 * Errors of the byte stream (reset, idle timeout) propagate to the consumer through the iterator.
 */
export async function* sseEvents(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const pending: SseEvent[] = [];
  const parser = createParser({
    onEvent(event) {
      pending.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data });
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift() as SseEvent;
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift() as SseEvent;
}
