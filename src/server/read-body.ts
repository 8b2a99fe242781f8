import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../core/errors.js';
import { isJsonObject } from '../core/json.js';
import type { JsonObject } from '../core/json.js';
import { parseRequestBody } from '../wire/shared-members.js';

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
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  // A body that is not UTF-8 is refused, never silently repaired (isUtf8 is a fast native check).
  if (!isUtf8(bytes)) throw new GatewayError('invalid_request', 'Request body is not valid UTF-8.');
  // The bytes as a one-byte string: what the upstream body is spliced from (raw-body.ts says why not the Buffer).
  const latin1 = bytes.toString('latin1');
  let parsed: unknown;
  try {
    parsed = parseRequestBody(bytes, latin1);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new GatewayError('invalid_request', `Request body is not valid JSON: ${detail}`);
  }
  if (!isJsonObject(parsed)) throw new GatewayError('invalid_request', 'Request body must be a JSON object.');
  return { body: parsed, length: bytes.length };
}

/** The parsed body alone, for routes that do not need its length. */
export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<JsonObject> {
  return (await readJsonRequest(request, limitBytes)).body;
}
