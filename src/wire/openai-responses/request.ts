import { isJsonObject, type JsonObject } from '../../core/json.js';
import { invalidRequest } from '../invalid-request.js';

/** What the gateway itself needs from a `POST /v1/responses` body; everything else is read while translating. */
export interface ResponsesRequest {
  body: JsonObject;
  model: string;
  stream: boolean;
  /** `store` defaults to true, as at OpenAI. */
  store: boolean;
  previousResponseId: string | undefined;
  /** `input` as a list of items (a string input is one user message). */
  inputItems: JsonObject[];
}

/**
 * Validates what routing and storage rely on (model, input, stream, store, previous_response_id, tools) and
 * nothing else. Errors name the field, as the API's own do.
 */
export function readResponsesRequest(body: unknown): ResponsesRequest {
  if (!isJsonObject(body)) throw invalidRequest('The request body must be a JSON object.');
  const model = body['model'];
  if (typeof model !== 'string' || model.length === 0) throw invalidRequest("'model' is required and must be a non-empty string.");
  const stream = body['stream'];
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') throw invalidRequest("'stream' must be a boolean.");
  const store = body['store'];
  if (store !== undefined && store !== null && typeof store !== 'boolean') throw invalidRequest("'store' must be a boolean.");
  const previous = body['previous_response_id'];
  if (previous !== undefined && previous !== null && typeof previous !== 'string') {
    throw invalidRequest("'previous_response_id' must be a string.");
  }
  const input = body['input'];
  let inputItems: JsonObject[];
  if (typeof input === 'string') inputItems = [{ type: 'message', role: 'user', content: input }];
  else if (Array.isArray(input)) {
    inputItems = input.map((item, index) => {
      if (!isJsonObject(item)) throw invalidRequest(`'input[${index}]' must be an object.`);
      return item;
    });
  } else if (input === undefined || input === null) inputItems = [];
  else throw invalidRequest("'input' must be a string or an array of input items.");
  if (inputItems.length === 0 && typeof previous !== 'string') throw invalidRequest("'input' is required.");
  const tools = body['tools'];
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) throw invalidRequest("'tools' must be an array.");
    tools.forEach((tool, index) => {
      if (!isJsonObject(tool) || typeof tool['type'] !== 'string') throw invalidRequest(`'tools[${index}].type' is required.`);
      if ((tool['type'] === 'function' || tool['type'] === 'custom') && (typeof tool['name'] !== 'string' || tool['name'].length === 0)) {
        throw invalidRequest(`'tools[${index}].name' is required and must be a non-empty string.`);
      }
    });
  }
  return {
    body,
    model,
    stream: stream === true,
    store: store !== false,
    previousResponseId: typeof previous === 'string' ? previous : undefined,
    inputItems,
  };
}
