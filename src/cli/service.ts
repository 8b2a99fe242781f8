import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveDataDir } from '../config/paths.js';
import { flagsOrExit } from './arguments.js';
import type { Command, CommandContext } from './command.js';
import { launchdLabel, launchdPlist, serviceFilePath, serviceName, systemdUnit } from './service-files.js';

const usage = `Usage: hermes-router service install|uninstall|status [--config FILE] [--data-dir DIR] [--port N] [--dry-run]

Runs the gateway as a per-user service that starts at login and restarts on failure: a systemd user unit
(~/.config/systemd/user/hermes-router.service) on Linux, a LaunchAgent (~/Library/LaunchAgents/${launchdLabel}.plist)
on macOS. --dry-run prints the file instead of writing it and runs nothing.
`;

/** Runs the service manager; its failure is reported, never thrown (the file is already written). */
function manage(context: CommandContext, command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    return true;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    context.stderr.write(`${command} ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}\n`);
    return false;
  }
}

function serviceCommand(action: 'install' | 'uninstall' | 'status'): Command {
  return {
    name: `service ${action}`,
    summary: action === 'install' ? 'Run the gateway as a user service (systemd unit or launchd agent)' : action === 'uninstall' ? 'Stop and remove the user service' : 'Show whether the user service is installed and running',
    async run(args, context) {
      const flags = flagsOrExit(
        args,
        { config: { type: 'string' }, 'data-dir': { type: 'string' }, port: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
        usage,
        context,
      );
      if (typeof flags === 'number') return flags;
      const platform = (context.env.HERMES_ROUTER_SERVICE_PLATFORM as NodeJS.Platform | undefined) ?? process.platform;
      const path = serviceFilePath(platform, context.env.HOME);
      if (path === undefined) {
        context.stderr.write(`service: no per-user service manager known for ${platform}; run "hermes-router start" under your own supervisor (docs/deployment.md).\n`);
        return 1;
      }
      const systemd = platform === 'linux';
      if (action === 'status') {
        if (!existsSync(path)) {
          context.stdout.write(`not installed (${path} does not exist)\n`);
          return 3;
        }
        let state = 'unknown';
        try {
          state = systemd
            ? execFileSync('systemctl', ['--user', 'is-active', serviceName], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()
            : execFileSync('launchctl', ['list', launchdLabel], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().includes('"PID"') ? 'active' : 'loaded';
        } catch (error) {
          state = (error as { stdout?: Buffer }).stdout?.toString().trim() || 'not running';
        }
        context.stdout.write(`installed: ${path}\nstate: ${state}\n`);
        return state === 'active' ? 0 : 3;
      }
      if (action === 'uninstall') {
        if (!existsSync(path)) {
          context.stdout.write(`not installed (${path} does not exist)\n`);
          return 0;
        }
        if (!flags['dry-run']) {
          if (systemd) manage(context, 'systemctl', ['--user', 'disable', '--now', serviceName]);
          else manage(context, 'launchctl', ['unload', path]);
          rmSync(path);
        }
        context.stdout.write(`${flags['dry-run'] ? 'would remove' : 'removed'} ${path}\n`);
        return 0;
      }
      // install: the same node and CLI entry as this process, so the service runs this installation.
      const entry = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'hermes-router.js');
      const dataDir = resolveDataDir({ flag: flags['data-dir'], env: context.env });
      const command = [process.execPath, entry, 'start', ...(flags.config ? ['--config', resolve(context.cwd, flags.config)] : []), ...(flags.port ? ['--port', flags.port] : [])];
      const environment: Record<string, string> = { HERMES_ROUTER_HOME: dataDir };
      for (const name of Object.keys(context.env)) {
        // Provider keys and the gateway's own settings the user has in this shell: a service does not read ~/.bashrc.
        if (/^(HERMES_ROUTER_(?!HOME$|SERVICE_PLATFORM$)[A-Z_]+|[A-Z][A-Z0-9_]*_API_KEY)$/.test(name) && context.env[name]) environment[name] = context.env[name] ?? '';
      }
      const spec = { command, workingDirectory: context.cwd, environment };
      const text = systemd ? systemdUnit(spec) : launchdPlist(spec, dataDir);
      if (flags['dry-run']) {
        context.stdout.write(`${path}:\n${text}`);
        return 0;
      }
      mkdirSync(dirname(path), { recursive: true });
      // Owner-only: it may hold provider keys copied from the environment.
      writeFileSync(path, text, { mode: 0o600 });
      const started = systemd
        ? manage(context, 'systemctl', ['--user', 'daemon-reload']) && manage(context, 'systemctl', ['--user', 'enable', '--now', serviceName])
        : manage(context, 'launchctl', ['load', '-w', path]);
      const copied = Object.keys(environment).filter((name) => name !== 'HERMES_ROUTER_HOME');
      context.stdout.write(
        `wrote ${path}${copied.length > 0 ? ` (with ${copied.join(', ')} from this shell)` : ''}\n` +
          (started
            ? `started; logs: ${systemd ? `journalctl --user -u ${serviceName} -f` : dataDir}\n`
            : `not started: start it with ${systemd ? `systemctl --user enable --now ${serviceName}` : `launchctl load -w ${path}`}\n`) +
          `check: hermes-router service status; hermes-router doctor\n`,
      );
      return started ? 0 : 1;
    },
  };
}

export const serviceCommands = { install: serviceCommand('install'), uninstall: serviceCommand('uninstall'), status: serviceCommand('status') };
