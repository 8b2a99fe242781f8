import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingContext } from '../support/cli-context.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-router-service-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function service(args: string[], platform: string, extra: NodeJS.ProcessEnv = {}) {
  // PATH without systemctl/launchctl: the file is written, starting it is reported as not done.
  const env = { HOME: home, HERMES_ROUTER_SERVICE_PLATFORM: platform, PATH: '/nonexistent', OPENAI_API_KEY: 'sk-from-shell', UNRELATED_SECRET: 'no', ...extra };
  const context = capturingContext({ env, cwd: home });
  const code = await main(['service', ...args], context);
  return { code, out: context.out(), err: context.err() };
}

describe('hermes-router service', () => {
  it('install --dry-run prints a systemd user unit that runs this installation with the shell\'s provider keys', async () => {
    const result = await service(['install', '--dry-run', '--data-dir', join(home, 'data'), '--port', '8400'], 'linux');
    expect(result.code).toBe(0);
    expect(result.out).toContain(join(home, '.config/systemd/user/hermes-router.service'));
    expect(result.out).toMatch(new RegExp(`ExecStart=${process.execPath.replace(/[/.]/g, '\\$&')} \\S+/bin/hermes-router\\.js start --port 8400`));
    expect(result.out).toContain(`Environment=HERMES_ROUTER_HOME=${join(home, 'data')}`);
    expect(result.out).toContain('Environment=OPENAI_API_KEY=sk-from-shell');
    expect(result.out).not.toContain('UNRELATED_SECRET');
    expect(result.out).toContain('Restart=on-failure');
    expect(result.out).toContain('WantedBy=default.target');
    expect(existsSync(join(home, '.config/systemd/user/hermes-router.service'))).toBe(false);
  });

  it('install --dry-run on macOS prints a LaunchAgent plist', async () => {
    const result = await service(['install', '--dry-run'], 'darwin');
    expect(result.code).toBe(0);
    expect(result.out).toContain(join(home, 'Library/LaunchAgents/dev.hermes-router.plist'));
    expect(result.out).toContain('<key>ProgramArguments</key>');
    expect(result.out).toContain('<string>start</string>');
    expect(result.out).toContain('<key>KeepAlive</key>');
  });

  it('install writes the unit owner-only, status sees it, uninstall removes it', async () => {
    const installed = await service(['install'], 'linux');
    const path = join(home, '.config/systemd/user/hermes-router.service');
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toContain('ExecStart=');
    // No systemctl on this PATH: written, and it says how to start it.
    expect(installed.code).toBe(1);
    expect(installed.out).toContain('systemctl --user enable --now hermes-router');
    const status = await service(['status'], 'linux');
    expect(status.out).toContain(`installed: ${path}`);
    expect(status.code).toBe(3);
    const removed = await service(['uninstall'], 'linux');
    expect(removed.code).toBe(0);
    expect(existsSync(path)).toBe(false);
    expect((await service(['status'], 'linux')).out).toContain('not installed');
  });

  it('says so on a platform without a known user service manager', async () => {
    const result = await service(['install'], 'win32');
    expect(result.code).toBe(1);
    expect(result.err).toContain('no per-user service manager known for win32');
  });
});
