import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingContext } from '../support/cli-context.js';
import { spawnGateway } from '../support/spawn-gateway.js';
import type { GatewayProcess } from '../support/spawn-gateway.js';

let dataDir: string;
let gateway: GatewayProcess;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hermes-router-first-run-'));
  // No HERMES_ROUTER_ADMIN_KEY: the first start generates the admin key.
  gateway = await spawnGateway(dataDir, {});
}, 60_000);

afterAll(async () => {
  gateway.child.kill('SIGTERM');
  await gateway.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const context = capturingContext({ env: { HOME: dataDir, ...env }, cwd: dataDir });
  const code = await main(args, context);
  return { code, out: context.out(), err: context.err() };
}

function loginLink(text: string): string {
  const link = /Dashboard login link \([^)]*\): (http:\/\/\S+)/.exec(text)?.[1] ?? /Login link \([^)]*\): (http:\/\/\S+)/.exec(text)?.[1];
  if (!link) throw new Error(`no login link in:\n${text}`);
  return link;
}

describe('first run: one place to look, and the admin key kept for the owner', () => {
  it('the banner names the dashboard, and GET / redirects to it', async () => {
    expect(gateway.output()).toContain(`dashboard: ${gateway.url}/dashboard/`);
    const root = await fetch(`${gateway.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/dashboard/');
    const page = await fetch(`${gateway.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('the generated admin key is saved owner-only (0600) in the data directory, and the banner says where', () => {
    const printed = /Admin key \(new\): (\S+)/.exec(gateway.output())?.[1];
    expect(printed).toBeTruthy();
    const file = join(dataDir, 'admin-key');
    expect(gateway.output()).toContain(`saved to ${file} (readable only by you)`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(printed);
  });

  it('the CLI on this machine uses the key file when HERMES_ROUTER_ADMIN_KEY is unset', async () => {
    const result = await cli(['router', 'status', '--url', gateway.url, '--data-dir', dataDir]);
    expect(result.err).toBe('');
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toContain(`live on ${gateway.url}`);
  });

  it('remote use (no key file there) still needs the key, and says how', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'hermes-router-elsewhere-'));
    try {
      const result = await cli(['router', 'status', '--url', gateway.url, '--data-dir', elsewhere]);
      expect(result.code).toBe(1);
      expect(result.err).toContain('set HERMES_ROUTER_ADMIN_KEY');
      const wrong = await cli(['router', 'status', '--url', gateway.url, '--data-dir', elsewhere], { HERMES_ROUTER_ADMIN_KEY: 'hr_admin_wrong' });
      expect(wrong.code).toBe(1);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a key file other users can read is refused, not trusted', async () => {
    const file = join(dataDir, 'admin-key');
    chmodSync(file, 0o644);
    try {
      const result = await cli(['router', 'status', '--url', gateway.url, '--data-dir', dataDir]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`chmod 600 ${file}`);
    } finally {
      chmodSync(file, 0o600);
    }
  });

  it('the printed login link logs the browser in once; a second use is refused', async () => {
    const link = loginLink(gateway.output());
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/dashboard/');
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^hermes_router_session=/);
    const overview = await fetch(`${gateway.url}/dashboard/api/overview?days=all&tz=0`, { headers: { cookie } });
    expect(overview.status).toBe(200);
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(await again.text()).toContain('hermes-router dashboard');
    const forged = await fetch(`${gateway.url}/auth/link?token=not-a-token`, { redirect: 'manual' });
    expect(forged.status).toBe(401);
  });

  it('`hermes-router dashboard` prints a fresh one-time link (admin key from the file)', async () => {
    const result = await cli(['dashboard', '--url', gateway.url, '--data-dir', dataDir]);
    expect(result.err).toBe('');
    expect(result.out).toContain(`Dashboard: ${gateway.url}/dashboard/`);
    const response = await fetch(loginLink(result.out), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const anonymous = await fetch(`${gateway.url}/v1/admin/dashboard-link`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  });
});
