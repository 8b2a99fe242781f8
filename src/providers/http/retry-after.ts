/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(headers: Record<string, string | string[] | undefined>): number | undefined {
  const milliseconds = single(headers['retry-after-ms']);
  if (milliseconds !== undefined) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = single(headers['retry-after']);
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - Date.now());
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
