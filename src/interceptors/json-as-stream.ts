import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import type { EventWriter } from '../wire/event-writer.js';
import { wireFormat } from '../wire/formats.js';

/**
 * A complete client-format response written as a stream, for providers that ignore `stream: true` and answer
 * with one JSON body: the client asked for a stream and gets a well-formed one.
 */
export function writeJsonAsStream(writer: EventWriter, body: JsonObject, format: ApiFormat, includeUsage: boolean): void {
  for (const event of wireFormat(format).bodyAsStreamEvents(body, includeUsage)) writer.writeJson(event.payload, event.eventName);
  writer.writeDone();
  writer.end();
}
