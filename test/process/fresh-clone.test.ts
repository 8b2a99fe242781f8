import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startFakeUpstream } from '../support/fake-upstream/index.js';
import type { FakeUpstream } from '../support/fake-upstream/index.js';

const repository = fileURLToPath(new URL('../..', import.meta.url));

/** Why this machine cannot run the test, or undefined: it needs git, npx, and this checkout's node_modules. */
function cannotRun(): string | undefined {
  for (const tool of ['git', 'npx']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      return `${tool} is not on the PATH`;
    }
  }
  if (!existsSync(join(repository, '.git'))) return 'this copy of the project is not a git checkout';
  if (!existsSync(join(repository, 'node_modules', 'typescript'))) return 'node_modules is not installed (run npm ci first)';
  return undefined;
}

const skipReason = cannotRun();
// One line, so a skipped run says why instead of passing silently.
if (skipReason) console.warn(`fresh-clone quick start skipped: ${skipReason}`);

/** The commands of the README's quick start block, without comments. */
function quickStartCommands(): string[] {
  const readme = readFileSync(join(repository, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let upstream: FakeUpstream;
let root: string;
let clone: string;
let environment: NodeJS.ProcessEnv;

function run(command: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: clone, env: { ...environment, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (skipReason) return;
  upstream = await startFakeUpstream();
  root = mkdtempSync(join(tmpdir(), 'hermes-router-fresh-clone-'));
  clone = join(root, 'hermes-router');
  const home = join(root, 'home');
  mkdirSync(home);
  execFileSync('git', ['clone', '--quiet', '--shared', repository, clone]);
  // A fresh HOME: no ~/.hermes-router, no npm cache, no global config. Offline: everything comes from the checkout.
  environment = {
    PATH: process.env.PATH,
    HOME: home,
    npm_config_cache: join(home, '.npm'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    HERMES_ROUTER_LOG_LEVEL: 'warn',
  };
}, 60_000);

afterAll(async () => {
  if (skipReason) return;
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skipReason !== undefined)('the README quick start on a fresh clone', () => {
  it('npm ci, npx hermes-router start, npx hermes-router doctor and --version work in a new HOME', async () => {
    const commands = quickStartCommands();
    // The block's last line is the test command; running the suite from inside the suite would recurse.
    expect(commands).toEqual(['npm ci', 'npx hermes-router start', 'npx hermes-router doctor', 'npm test']);
    // `npm ci` is the dependencies plus the package's prepare (the build). The dependencies are this checkout's
    // (a symlink keeps the test from downloading or compiling them again); the build is left to the first npx
    // call, which runs prepare as npm does for a package it links, so the clone has no dist/ before it.
    symlinkSync(join(repository, 'node_modules'), join(clone, 'node_modules'), 'dir');
    expect(existsSync(join(clone, 'dist'))).toBe(false);

    const version = await run('npx', ['hermes-router', '--version']);
    expect(version.stderr).not.toMatch(/error/i);
    expect(version).toMatchObject({ code: 0, stdout: `${(JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { version: string }).version}\n` });

    writeFileSync(
      join(clone, 'hermes-router.yaml'),
      stringify({ providers: [{ id: 'local', kind: 'openai-compatible', base_url: `${upstream.url}/v1`, api_key: 'sk-test', models: ['gpt-4o-mini'] }] }),
    );
    const gateway = spawn('npx', ['hermes-router', 'start'], { cwd: clone, env: { ...environment, HERMES_ROUTER_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let banner = '';
    gateway.stdout.on('data', (chunk: Buffer) => (banner += chunk.toString()));
    gateway.stderr.on('data', (chunk: Buffer) => (banner += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner:\n${banner}`)), 180_000);
        gateway.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(banner);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        void exited.then((code) => reject(new Error(`start exited ${code}:\n${banner}`)));
      });
      expect(banner).toContain(`dashboard: ${url}/dashboard/`);
      expect(banner).toContain(join(environment.HOME ?? '', '.hermes-router'));
      expect((await fetch(`${url}/health`)).status).toBe(200);

      const doctor = await run('npx', ['hermes-router', 'doctor'], { HERMES_ROUTER_PORT: new URL(url).port });
      expect(doctor.stdout).toContain('All checks passed.');
      expect(doctor.stdout).toMatch(/ok\s+port\s+.*hermes-router is running there and healthy/);
      expect(doctor.code).toBe(0);
    } finally {
      // npx runs the gateway as its child: signal the whole group.
      if (gateway.pid !== undefined) process.kill(-gateway.pid, 'SIGTERM');
      await exited;
    }
    // Budgets, not speeds: the first npx builds dist/ (tsc over the whole package); in a whole-suite run at load
    // average 20 the test passed 240 s.
  }, 600_000);
});
