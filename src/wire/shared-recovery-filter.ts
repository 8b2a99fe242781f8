import type { JsonObject } from '../core/json.js';
import type { ClientEmitter } from './client-emitter.js';
import type { InterceptedCall, RecoveryFilter, ThinkingBlock } from './recovery-filter.js';

/** A client-format event held back (the finish of a response that asked only for toolsets). */
export interface HeldEvent {
  payload: JsonObject;
  raw: string | undefined;
  eventName: string | undefined;
}

/** What every format's filter shares across the responses of one client stream. */
export interface RecoveryStream {
  readonly next: ClientEmitter;
  /** True from the first re-issued response on. */
  readonly continuation: boolean;
  readonly holding: boolean;
  /** Holds an event back (and from then on the stream's end) until `releaseHeld` or a continuation. */
  hold(event: HeldEvent): void;
  addText(text: string): void;
  calledTool(name: string): void;
}

/** One upstream response as a format's filter reads it: its own block or call numbering, its intercepted calls. */
export interface ResponseFilter {
  emit(payload: JsonObject, raw: string | undefined, eventName: string | undefined): void;
  interceptedCalls(): InterceptedCall[];
  thinkingBlocks(): ThinkingBlock[];
}

export interface RecoveryFilterFormat {
  /** A fresh filter for the next upstream response (the first, then each re-issue). */
  createResponse(stream: RecoveryStream): ResponseFilter;
  /** A held event as it is written when no re-issue follows: a tool-use finish becomes a normal one. */
  released(event: HeldEvent): HeldEvent;
  /** Whether the stream's end frame follows the released events (OpenAI `[DONE]`; Anthropic ends with message_stop). */
  endsAfterRelease: boolean;
}

/**
 * The request_toolset recovery filter of every format: holding the finish, the text and the called tool names
 * across a client stream, continuation and release. What differs per format (how events name blocks and calls,
 * how a finish is rewritten) is `RecoveryFilterFormat`.
 */
export function createRecoveryFilter(next: ClientEmitter, format: RecoveryFilterFormat): RecoveryFilter {
  let held: HeldEvent[] = [];
  let holding = false;
  let text = '';
  let continuation = false;
  const called: string[] = [];
  const stream: RecoveryStream = {
    next,
    get continuation() {
      return continuation;
    },
    get holding() {
      return holding;
    },
    hold(event) {
      holding = true;
      held.push(event);
    },
    addText(added) {
      text += added;
    },
    calledTool(name) {
      called.push(name);
    },
  };
  let response = format.createResponse(stream);
  return {
    emit(payload, raw, eventName) {
      response.emit(payload, raw, eventName);
    },
    done() {
      if (!holding) next.done();
    },
    pendingRecovery: () => (holding ? response.interceptedCalls() : undefined),
    interceptedCalls: () => response.interceptedCalls(),
    calledToolNames: () => [...called],
    responseText: () => text,
    thinkingBlocks: () => response.thinkingBlocks(),
    beginContinuation() {
      held = [];
      holding = false;
      text = '';
      continuation = true;
      response = format.createResponse(stream);
    },
    releaseHeld() {
      for (const event of held) {
        const released = format.released(event);
        next.emit(released.payload, released.raw, released.eventName);
      }
      held = [];
      holding = false;
      if (format.endsAfterRelease) next.done();
    },
  };
}
