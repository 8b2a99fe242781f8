/**
 * Keyset cursor for the requests listing: the (startedAt, requestId) of the last row returned. Keyset rather
 * than offset so a page stays correct while the gateway keeps inserting newer rows.
 */
export interface LedgerCursor {
  startedAt: number;
  requestId: string;
}

export function encodeLedgerCursor(cursor: LedgerCursor): string {
  return Buffer.from(JSON.stringify([cursor.startedAt, cursor.requestId])).toString('base64url');
}

export function decodeLedgerCursor(text: string): LedgerCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new Error(`invalid requests cursor: ${text}`);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'number' ||
    typeof parsed[1] !== 'string'
  ) {
    throw new Error(`invalid requests cursor: ${text}`);
  }
  return { startedAt: parsed[0], requestId: parsed[1] };
}

/** Whether a row sorts strictly after the cursor in the listing's order (newest first, then id descending). */
export function isAfterCursor(row: LedgerCursor, cursor: LedgerCursor): boolean {
  return row.startedAt < cursor.startedAt || (row.startedAt === cursor.startedAt && row.requestId < cursor.requestId);
}

export function clampPageSize(limit: number | undefined, fallback: number, maximum: number): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(Math.max(Math.trunc(limit), 1), maximum);
}
