import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import { wireFormat } from '../wire/formats.js';
import { buildCapabilityCatalog, requestToolsetName } from './catalog.js';
import type { ToolsetRegistry } from './toolsets/registry.js';

/**
 * The `request_toolset` tool in the client's own format, its description carrying the capability catalog.
 * Built from the registry only, so the same client tools always give the same object (and the same bytes once
 * serialised: key order here is fixed).
 */
export function buildRequestToolsetTool(registry: ToolsetRegistry, format: ApiFormat): JsonObject {
  const description = buildCapabilityCatalog(registry);
  // The names are listed once, in the catalog: an enum would repeat them all (about 4 tokens each, on every
  // request), and an unknown name is answered with the valid ones anyway (requestToolsetResultText).
  const parameters = {
    type: 'object',
    properties: { toolsets: { type: 'array', items: { type: 'string' } } },
    required: ['toolsets'],
  };
  return wireFormat(format).functionTool({ name: requestToolsetName, description, parameters });
}
