import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface PortHolder {
  pid: number;
  command: string;
}

/** Socket inodes listening on `port`, from /proc/net/tcp{,6} (column 2 is local address:port in hex, state 0A = LISTEN). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (!local || fields[3] !== '0A') continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * Which process listens on a TCP port, so "port in use" can say who holds it. Linux only (reads /proc), and only
 * processes this user may inspect; undefined when that cannot be told.
 */
export function findPortHolder(port: number): PortHolder | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let processes: string[];
  try {
    processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of processes) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${descriptor}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        let command = '';
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        } catch {
          command = '';
        }
        return { pid: Number(pid), command: command.length > 120 ? `${command.slice(0, 117)}...` : command };
      }
    }
  }
  return undefined;
}

/** "port 8319 is in use by pid 123 (node …)", or without the holder when it cannot be told. */
export function describePortInUse(host: string, port: number): string {
  const holder = findPortHolder(port);
  const who = holder ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : '';
  return `${host}:${port} is in use${who}`;
}
