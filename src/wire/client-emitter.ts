import type { JsonObject } from '../core/json.js';
import type { EventWriter } from './event-writer.js';

/**
 * Where client-format stream events go. Every event arrives parsed; `raw` is the provider's own serialization
 * when the event is passed through unchanged, so the default emitter can write those bytes without
 * re-serializing. Filters (the request_toolset recovery) sit in front of the writer through this interface.
 */
export interface ClientEmitter {
  emit(payload: JsonObject, raw: string | undefined, eventName: string | undefined): void;
  /** The OpenAI `[DONE]` sentinel (Anthropic streams end with their message_stop event instead). */
  done(): void;
}

export function writerEmitter(writer: EventWriter): ClientEmitter {
  return {
    emit(payload, raw, eventName) {
      if (raw === undefined) writer.writeJson(payload, eventName);
      else writer.writeRaw(raw, eventName);
    },
    done() {
      writer.writeDone();
    },
  };
}
