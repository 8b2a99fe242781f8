import type { ApiFormat } from '../core/api-format.js';
import type { JsonObject } from '../core/json.js';
import { wireFormat } from '../wire/formats.js';
import { buildCapabilityCatalog, requestToolsetName } from './catalog.js';
import type { ToolsetRegistry } from './toolsets/registry.js';

/** Above this many toolsets the names are not repeated as an enum. */
const maximumEnumNames = 40;

/**
 * The `request_toolset` tool in the client's own format, its description carrying the capability catalog.
 * Built from the registry only, so the same client tools always give the same object (and the same bytes once
 * serialised: key order here is fixed).
 */
export function buildRequestToolsetTool(registry: ToolsetRegistry, format: ApiFormat): JsonObject {
  const description = buildCapabilityCatalog(registry);
  // With hundreds of toolsets (per-tool mode) the enum would repeat every name of the catalog: the names are
  // listed once, and an unknown name is answered with the valid ones anyway (requestToolsetResultText).
  const names = registry.toolsets.map((toolset) => toolset.name);
  const parameters = {
    type: 'object',
    properties: {
      toolsets: {
        type: 'array',
        items: names.length <= maximumEnumNames ? { type: 'string', enum: names } : { type: 'string' },
        description: 'Names of the toolsets to load, from the list above.',
      },
      reason: { type: 'string', description: 'What you need them for, in a few words.' },
    },
    required: ['toolsets'],
  };
  return wireFormat(format).functionTool({ name: requestToolsetName, description, parameters });
}
