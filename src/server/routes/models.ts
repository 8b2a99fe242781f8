import type { ServerResponse } from 'node:http';
import type { Gateway } from '../../pipeline/gateway.js';
import { routerAlias } from '../../catalog/model-catalog.js';
import { sendJson } from '../../pipeline/send.js';

/** `GET /v1/models` in OpenAI's list format: the alias, every model id, and every `provider/model`. */
export function handleModels(gateway: Gateway, response: ServerResponse): void {
  const created = Math.floor(Date.now() / 1000);
  const data: { id: string; object: 'model'; created: number; owned_by: string }[] = [];
  if (gateway.catalog.deployments.length > 0) data.push({ id: routerAlias, object: 'model', created, owned_by: 'hermes-router' });
  for (const name of gateway.catalog.modelNames()) {
    const owner = gateway.catalog.resolve(name)[0]?.providerId ?? 'hermes-router';
    data.push({ id: name, object: 'model', created, owned_by: owner });
  }
  for (const deployment of gateway.catalog.deployments) {
    data.push({ id: deployment.qualifiedName, object: 'model', created, owned_by: deployment.providerId });
  }
  sendJson(response, 200, { object: 'list', data });
}
