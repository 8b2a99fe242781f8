import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../core/errors.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON object body, refusing more than `limitBytes` (413) before buffering it all, and malformed JSON
 * or a non-object (400).
 */
export async function readJsonRequest(request: IncomingMessage, limitBytes: number): Promise<{ body: JsonObject; length: number }> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    request.resume();
    throw new GatewayError('payload_too_large', `Request body of ${declared} bytes exceeds the limit of ${limitBytes} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limitBytes) {
      request.resume();
      throw new GatewayError('payload_too_large', `Request body exceeds the limit of ${limitBytes} bytes.`);
    }
    chunks.push(buffer);
  }
  if (size === 0) throw new GatewayError('invalid_request', 'Request body is empty; send a JSON object.');
  let text: string;
  try {
    // Fatal decoding: a body that is not UTF-8 is refused, never silently repaired.
    text = strictUtf8.decode(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
  } catch {
    throw new GatewayError('invalid_request', 'Request body is not valid UTF-8.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new GatewayError('invalid_request', `Request body is not valid JSON: ${detail}`);
  }
  if (!isJsonObject(parsed)) throw new GatewayError('invalid_request', 'Request body must be a JSON object.');
  return { body: parsed, length: text.length };
}

/** The parsed body alone, for routes that do not need its length. */
export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<JsonObject> {
  return (await readJsonRequest(request, limitBytes)).body;
}
