import { isJsonObject, type JsonObject } from '../../core/json.js';
import { invalidRequest } from '../invalid-request.js';

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens';

/** What the gateway needs from a Gemini `models/{model}:{method}` call; the rest is read while translating. */
export interface GeminiRequest {
  body: JsonObject;
  model: string;
  stream: boolean;
  contents: JsonObject[];
}

const geminiPath = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

/** The model and method of a Gemini API path, or undefined when the path is not one. */
export function parseGeminiPath(path: string): { model: string; method: GeminiMethod } | undefined {
  const match = geminiPath.exec(path);
  if (!match) return undefined;
  let model = match[1] ?? '';
  try {
    model = decodeURIComponent(model);
  } catch {
    // A malformed escape: the name as written.
  }
  return { model, method: match[2] as GeminiMethod };
}

/** Validates what routing relies on (contents, their roles and parts, tools); silent about everything else. */
export function readGeminiRequest(body: unknown, model: string, stream: boolean): GeminiRequest {
  if (!isJsonObject(body)) throw invalidRequest('The request body must be a JSON object.');
  const contents = body['contents'];
  if (!Array.isArray(contents) || contents.length === 0) throw invalidRequest('contents is not specified');
  contents.forEach((content, index) => {
    if (!isJsonObject(content)) throw invalidRequest(`contents[${index}]: must be an object.`);
    const role = content['role'];
    if (role !== undefined && role !== 'user' && role !== 'model' && role !== 'function') {
      throw invalidRequest(`contents[${index}].role: Please use a valid role: user, model.`);
    }
    if (!Array.isArray(content['parts'])) throw invalidRequest(`contents[${index}].parts: must be an array.`);
  });
  const tools = body['tools'];
  if (tools !== undefined && !Array.isArray(tools)) throw invalidRequest('tools: must be an array.');
  return { body, model, stream, contents: contents.filter(isJsonObject) };
}
