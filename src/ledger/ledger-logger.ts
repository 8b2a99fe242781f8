/** The part of a pino logger the ledger uses; a pino instance satisfies it. */
export interface LedgerLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export const silentLogger: LedgerLogger = {
  info() {},
  warn() {},
  error() {},
};
