import { homedir } from 'node:os';
import { join } from 'node:path';

export const serviceName = 'hermes-router';
export const launchdLabel = 'dev.hermes-router';

export interface ServiceSpec {
  /** The command line that runs the gateway: node, the CLI entry, `start` and its flags. */
  command: string[];
  /** The directory it starts in (a `hermes-router.yaml` there is its config). */
  workingDirectory: string;
  /** Variables the service needs (HERMES_ROUTER_HOME, provider keys named by the user…). */
  environment: Record<string, string>;
}

/** Where the unit or plist lives for this user: systemd user units on Linux, a LaunchAgent on macOS. */
export function serviceFilePath(platform: NodeJS.Platform, home: string = homedir()): string | undefined {
  if (platform === 'linux') return join(home, '.config', 'systemd', 'user', `${serviceName}.service`);
  if (platform === 'darwin') return join(home, 'Library', 'LaunchAgents', `${launchdLabel}.plist`);
  return undefined;
}

/** systemd quotes a word with spaces or quotes in double quotes, escaping backslash and double quote. */
function systemdWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `"${word.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A systemd user unit: restarts on failure, SIGTERM lets in-flight requests finish (the gateway's
 * shutdown_grace_ms, within systemd's 30 s default), logs go to the journal (`journalctl --user -u hermes-router`).
 */
export function systemdUnit(spec: ServiceSpec): string {
  const environment = Object.entries(spec.environment).map(([name, value]) => `Environment=${systemdWord(`${name}=${value}`)}`);
  return [
    '[Unit]',
    'Description=hermes-router gateway',
    'After=network-online.target',
    '',
    '[Service]',
    `ExecStart=${spec.command.map(systemdWord).join(' ')}`,
    `WorkingDirectory=${systemdWord(spec.workingDirectory)}`,
    ...environment,
    'Restart=on-failure',
    'RestartSec=2',
    'KillSignal=SIGTERM',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A launchd LaunchAgent: started at login, kept alive, output in the data directory's logs. */
export function launchdPlist(spec: ServiceSpec, logDirectory: string): string {
  const environment = Object.entries(spec.environment)
    .map(([name, value]) => `      <key>${xml(name)}</key>\n      <string>${xml(value)}</string>`)
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '  <dict>',
    `    <key>Label</key>\n    <string>${launchdLabel}</string>`,
    `    <key>ProgramArguments</key>\n    <array>\n${spec.command.map((word) => `      <string>${xml(word)}</string>`).join('\n')}\n    </array>`,
    `    <key>WorkingDirectory</key>\n    <string>${xml(spec.workingDirectory)}</string>`,
    `    <key>EnvironmentVariables</key>\n    <dict>\n${environment}\n    </dict>`,
    '    <key>RunAtLoad</key>\n    <true/>',
    '    <key>KeepAlive</key>\n    <dict>\n      <key>SuccessfulExit</key>\n      <false/>\n    </dict>',
    `    <key>StandardOutPath</key>\n    <string>${xml(join(logDirectory, 'hermes-router.out.log'))}</string>`,
    `    <key>StandardErrorPath</key>\n    <string>${xml(join(logDirectory, 'hermes-router.err.log'))}</string>`,
    '  </dict>',
    '</plist>',
    '',
  ].join('\n');
}
