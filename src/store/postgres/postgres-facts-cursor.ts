/**
 * Where the Postgres facts feed stands: every row inserted by a transaction below `stable` was sent, and so were
 * those of the `sent` transactions. Within a round of pages, `horizon` is where the next round will start and
 * `after` the last (transaction, request id) sent. Transaction ids travel as text (xid8 is 64-bit).
 */
export interface PostgresFactsCursor {
  stable: string;
  horizon?: string;
  /** Transactions at or above `stable` whose rows were all sent. */
  sent?: string[];
  after?: [string, string];
}

export function encodeFactsCursor(cursor: PostgresFactsCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const transactionId = /^\d{1,20}$/;

export function decodeFactsCursor(text: string | undefined): PostgresFactsCursor {
  if (text === undefined) return { stable: '0' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new Error(`invalid facts cursor: ${text}`);
  }
  const candidate = parsed as Partial<PostgresFactsCursor> | null;
  const valid =
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.stable === 'string' &&
    transactionId.test(candidate.stable) &&
    (candidate.horizon === undefined || (typeof candidate.horizon === 'string' && transactionId.test(candidate.horizon))) &&
    (candidate.sent === undefined ||
      (Array.isArray(candidate.sent) && candidate.sent.every((entry) => typeof entry === 'string' && transactionId.test(entry)))) &&
    (candidate.after === undefined ||
      (Array.isArray(candidate.after) &&
        candidate.after.length === 2 &&
        typeof candidate.after[0] === 'string' &&
        transactionId.test(candidate.after[0]) &&
        typeof candidate.after[1] === 'string'));
  if (!valid) throw new Error(`invalid facts cursor: ${text}`);
  return candidate as PostgresFactsCursor;
}
