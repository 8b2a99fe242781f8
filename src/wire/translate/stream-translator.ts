/** Turns one upstream stream event into zero or more client events, then closes the stream cleanly. */
export interface StreamTranslator<In, Out> {
  push(event: In): Out[];
  /** Called once when the upstream stream ended; closes whatever is still open. */
  finish(): Out[];
}

/** An Anthropic server-sent event: the SSE `event:` name (always equal to `data.type`) and its payload. */
export interface AnthropicStreamEvent {
  event: string;
  data: Record<string, unknown>;
}
