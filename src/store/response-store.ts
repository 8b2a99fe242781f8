import type { JsonObject } from '../core/json.js';

/**
 * One stored Responses API response: enough to answer `GET /v1/responses/{id}` and `input_items`, and to
 * continue the conversation from it (`previous_response_id`) by walking the chain back.
 */
export interface StoredResponse {
  response: JsonObject;
  /** This request's own input items (with ids), not the earlier turns'. */
  inputItems: JsonObject[];
  previousResponseId?: string;
  /** The application key that created it; another key cannot read, continue or delete it. */
  clientKeyId?: string;
  /**
   * The provider that answered. When it speaks the Responses API itself (OpenAI) it holds the conversation too,
   * so a continuation it serves gets `previous_response_id` instead of the items.
   */
  servedBy?: string;
}

/**
 * Stored responses (version 1): memory for one instance, Redis for several. Entries expire after the TTL given to `set`, so a
 * long-idle conversation has to be sent whole again (the client gets the API's own 404 for the id).
 */
export interface ResponseStore {
  readonly specificationVersion: 'v1';
  get(id: string): Promise<StoredResponse | undefined>;
  set(id: string, value: StoredResponse, ttlMs: number): Promise<void>;
  delete(id: string): Promise<boolean>;
  close(): Promise<void>;
}
