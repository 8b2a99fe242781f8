import { isJsonObject, type JsonObject } from '../../core/json.js';
import { inputItemsOf } from './tools.js';

/**
 * Continues a conversation the provider does not hold (another provider served its last response, or the
 * gateway translated it) by sending its items in `input` and no `previous_response_id`. Item ids are the
 * gateway's or another provider's and mean nothing there, so they are dropped, as are reasoning items without
 * `encrypted_content` (a provider can only take back reasoning it encrypted itself).
 */
export function inlineConversation(body: JsonObject, items: readonly JsonObject[]): void {
  const carried: JsonObject[] = [];
  for (const item of items) {
    if (item['type'] === 'reasoning' && typeof item['encrypted_content'] !== 'string') continue;
    const { id: _id, ...rest } = item;
    carried.push(rest);
  }
  body['input'] = [...carried, ...inputItemsOf(body).filter(isJsonObject)];
  delete body['previous_response_id'];
}
