import type { JsonObject } from '../core/json.js';
import type { Usage } from '../core/usage.js';

/** Collects the usage a provider reports across the events of one stream. */
export interface UsageAccumulator {
  observe(event: JsonObject): void;
  /** The usage reported so far, or undefined when the stream carried none. */
  result(): Usage | undefined;
}
