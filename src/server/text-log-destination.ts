/** pino's numeric levels, named as a person reads them. */
const levelNames: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every pino line has, or that the message of a request line already says. */
const shownElsewhere = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toTimeString().slice(0, 8);
}

function scalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * One pino JSON line as a person reads it in a terminal: `14:03:27 INFO  <message>`, then an error's message, then
 * the other plain fields as `name=value` (none for a request line, whose message says it all: it carries an
 * `endpoint`). A line that is not JSON passes through unchanged.
 */
export function formatLogLine(line: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof entry !== 'object' || entry === null) return `${line.trimEnd()}\n`;
  const fields = entry as Record<string, unknown>;
  const level = typeof fields.level === 'number' ? (levelNames[fields.level] ?? String(fields.level)) : 'LOG';
  const parts = [`${clock(fields.time)} ${level.padEnd(5)} ${typeof fields.msg === 'string' ? fields.msg : ''}`.trimEnd()];
  const error = fields.err;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    parts.push(`: ${(error as { message: string }).message}`);
  }
  if (fields.endpoint === undefined) {
    const extras = Object.entries(fields)
      .filter(([name, value]) => !shownElsewhere.has(name) && name !== 'err' && scalar(value))
      .map(([name, value]) => `${name}=${String(value)}`);
    if (extras.length > 0) parts.push(`  ${extras.join(' ')}`);
  }
  return `${parts.join('')}\n`;
}

/** A pino destination that writes each line through `formatLogLine`. */
export function textLogDestination(stream: { write(text: string): unknown }): { write(line: string): void } {
  return {
    write(line: string) {
      for (const one of line.split('\n')) if (one.trim() !== '') stream.write(formatLogLine(one));
    },
  };
}
