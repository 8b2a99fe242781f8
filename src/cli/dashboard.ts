import type { Command } from './command.js';
import { adminCredential } from './admin-credential.js';
import { setupModelsCommand } from './models-setup.js';
import { gatewayRunning, gatewayUrl } from './running-gateway.js';

const usage = `Usage: hermes-router dashboard [--url URL] [--config FILE] [--data-dir DIR] [--json]

Prints the running gateway's dashboard address with a one-time login link (no admin key to paste). Needs the
admin key: HERMES_ROUTER_ADMIN_KEY, else the key file the gateway saved in its data directory.
`;

/** `hermes-router dashboard`: a fresh one-time login link from the running gateway. */
export const dashboardCommand: Command = {
  name: 'dashboard',
  summary: 'Print the dashboard address with a one-time login link',
  async run(args, context) {
    const setup = setupModelsCommand(args, context, usage, { url: { type: 'string' } });
    if (typeof setup === 'number') return setup;
    const url = gatewayUrl(setup.config.server, setup.values.url);
    if (!(await gatewayRunning(url))) {
      context.stderr.write(`No gateway answers at ${url}; start it with "hermes-router start" (or name it with --url).\n`);
      return 1;
    }
    const credential = adminCredential(context.env, setup.dataDir);
    if (credential.key === undefined) {
      context.stderr.write(`The dashboard is at ${url}/dashboard/ (log in with the admin key). For a login link, ${credential.advice}.\n`);
      return 1;
    }
    const response = await fetch(`${url}/v1/admin/dashboard-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential.key}` },
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await response.json().catch(() => ({}))) as { path?: unknown; expires_in_s?: unknown; error?: { message?: unknown } };
    if (!response.ok || typeof body.path !== 'string') {
      const reason = typeof body.error?.message === 'string' ? body.error.message : `HTTP ${response.status}`;
      context.stderr.write(`The gateway at ${url} refused a login link: ${reason}\n`);
      return 1;
    }
    const link = `${url}${body.path}`;
    const minutes = typeof body.expires_in_s === 'number' ? Math.round(body.expires_in_s / 60) : undefined;
    if (setup.json) context.stdout.write(`${JSON.stringify({ dashboard: `${url}/dashboard/`, login_link: link, expires_in_s: body.expires_in_s })}\n`);
    else context.stdout.write(`Dashboard: ${url}/dashboard/\nLogin link (works once${minutes === undefined ? '' : `, for ${minutes} minutes`}): ${link}\n`);
    return 0;
  },
};
