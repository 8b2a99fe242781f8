import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { catalogRow } from '../../../catalog/catalog-rows.js';
import type { Deployment } from '../../../catalog/deployment.js';
import { GatewayError } from '../../../core/errors.js';
import { PolicyRevisionConflict } from '../../../store/policy/policy-store.js';
import type { Gateway } from '../../../pipeline/gateway.js';
import { readJsonBody } from '../../read-body.js';
import { sendError, sendJson } from '../../../pipeline/send.js';
import { adminRejection } from './admin-auth.js';

const switchRequestSchema = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    enabled: z.boolean(),
  })
  .strict();

/** `If-Match: "7"`, `W/"7"` or `7` → 7; undefined when absent; an error when it is not a revision. */
function expectedRevision(request: IncomingMessage): number | undefined {
  const header = request.headers['if-match'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '' || value.trim() === '*') return undefined;
  const revision = Number(value.replace(/^W\//, '').replace(/"/g, '').trim());
  if (!Number.isInteger(revision) || revision < 0) {
    throw new GatewayError('invalid_request', `If-Match must be a policy revision such as "3", got ${value}.`);
  }
  return revision;
}

function etag(revision: number): Record<string, string> {
  return { etag: `"${revision}"` };
}

/** A switch and what the router knows about the model (so a dashboard can show why a model is never chosen). */
export function switchView(gateway: Gateway, deployment: Deployment) {
  const row = catalogRow(deployment, gateway.switches.isEnabled(deployment));
  return {
    provider: row.provider,
    model: row.model,
    enabled: row.enabled,
    kind: row.kind,
    metadata: {
      context_window: row.contextWindow,
      max_output_tokens: row.maxOutputTokens,
      tools: row.tools,
      vision: row.vision,
      reasoning: row.reasoning,
      tier: row.tier,
      input_per_million: row.inputPerMillion,
      output_per_million: row.outputPerMillion,
      sources: row.sources,
    },
  };
}

function listSwitches(gateway: Gateway, response: ServerResponse): void {
  const configured = new Set(gateway.catalog.deployments.map((deployment) => deployment.qualifiedName));
  // Saved switches of models no longer configured are kept (and listed) so re-adding a model restores its choice.
  const unconfigured = Object.entries(gateway.switches.saved())
    .filter(([name]) => !configured.has(name))
    .map(([name, entry]) => ({ model: name, enabled: entry.enabled, updated_at: entry.updatedAt }));
  sendJson(
    response,
    200,
    {
      revision: gateway.switches.revision,
      policy_file: gateway.switches.location,
      models: gateway.catalog.deployments.map((deployment) => switchView(gateway, deployment)),
      unconfigured,
      audit: gateway.switches.audit(),
    },
    etag(gateway.switches.revision),
  );
}

async function setSwitch(gateway: Gateway, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const revision = expectedRevision(request);
  const body = await readJsonBody(request, 64 * 1024);
  const parsed = switchRequestSchema.safeParse(body);
  if (!parsed.success) {
    throw new GatewayError('invalid_request', 'Send {"provider": "<provider id>", "model": "<model id>", "enabled": true|false}.');
  }
  const { provider, model, enabled } = parsed.data;
  if (!gateway.catalog.find(provider, model)) {
    const known = gateway.catalog.deployments.map((deployment) => deployment.qualifiedName).join(', ');
    throw new GatewayError('not_found', `No model ${provider}/${model} is configured. Configured: ${known || 'none'}.`);
  }
  try {
    const state = await gateway.switches.set({ provider, model, enabled }, revision, 'admin-api');
    gateway.logger.info({ provider, model, enabled, revision: state.revision }, 'model switch changed');
    sendJson(response, 200, { provider, model, enabled, restart_required: false, revision: state.revision }, etag(state.revision));
  } catch (error) {
    if (error instanceof PolicyRevisionConflict) {
      throw new GatewayError('invalid_request', `${error.message}.`, { status: 409 });
    }
    gateway.logger.error({ err: error }, 'saving the model policy failed');
    throw new GatewayError('internal', `Saving ${gateway.switches.location} failed; the running policy is unchanged (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/**
 * The admin API for model switches: `GET /v1/config/models`, `POST /v1/config/models/enabled`. Returns false
 * for paths it does not own.
 */
export async function handleModelSwitchRoutes(
  gateway: Gateway,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
): Promise<boolean> {
  const method = request.method ?? 'GET';
  const routes: Record<string, string> = { '/v1/config/models': 'GET', '/v1/config/models/enabled': 'POST' };
  const expected = routes[path];
  if (expected === undefined) return false;
  try {
    if (method !== expected) throw new GatewayError('invalid_request', `Use ${expected} for ${path}.`, { status: 405 });
    const rejection = adminRejection(request, gateway.env);
    if (rejection) throw rejection;
    if (path === '/v1/config/models') listSwitches(gateway, response);
    else await setSwitch(gateway, request, response);
  } catch (caught) {
    request.resume();
    const error = caught instanceof GatewayError ? caught : new GatewayError('internal', String(caught));
    sendError(response, error, 'openai-chat');
  }
  return true;
}
