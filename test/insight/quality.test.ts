import { afterEach, describe, expect, it } from 'vitest';
import { LedgerReader } from '../../src/insight/ledger-reader.js';
import { gradeFor, scoreSessions } from '../../src/insight/quality.js';
import { ledgerFile, record, testModels } from './insight-fixture.js';

const start = Date.UTC(2026, 10, 20, 10);
let reader: LedgerReader | undefined;
afterEach(() => reader?.close());

async function scored(records: Parameters<typeof ledgerFile>[0]) {
  reader = LedgerReader.open(await ledgerFile(records));
  if (!reader) throw new Error('no ledger');
  return scoreSessions(reader.sessionStats(), testModels());
}

describe('session quality', () => {
  it('uses the latest prompt over the real window, not the cumulative input, and not 200K for a 1M model', async () => {
    // Three requests on `big` (1M window): cumulative input 1.2M, latest prompt 500K → fill 50%, no fill penalty.
    const [session] = await scored([
      record({ id: 'a', at: start, session: 'long', requested: 'big', served: 'big', input: 300_000, output: 9_000, cacheRead: 200_000 }),
      record({ id: 'b', at: start + 1, session: 'long', requested: 'big', served: 'big', input: 400_000, output: 9_000, cacheRead: 300_000 }),
      record({ id: 'c', at: start + 2, session: 'long', requested: 'big', served: 'big', input: 500_000, output: 9_000, cacheRead: 400_000 }),
    ]);
    expect(session?.contextWindow).toBe(1_000_000);
    expect(session?.contextFill).toBe(0.5);
    expect(session?.signals.find((signal) => signal.name === 'context_fill')?.penalty).toBe(0);
    expect(session?.score).toBe(100);
    expect(session?.grade).toBe('S');
  });

  it('scores fill against the served model window and ignores a later failed request', async () => {
    const [session] = await scored([
      record({ id: 'a', at: start, session: 'full', requested: 'cheap', served: 'cheap', input: 90_000, output: 2_000 }),
      record({ id: 'b', at: start + 1, session: 'full', requested: 'cheap', status: 500, cost: 0 }),
    ]);
    expect(session?.contextFill).toBeCloseTo(0.9, 10);
    const fill = session?.signals.find((signal) => signal.name === 'context_fill');
    expect(fill?.penalty).toBeCloseTo(40 * 0.8, 10);
    const failures = session?.signals.find((signal) => signal.name === 'failures');
    expect(failures?.penalty).toBeCloseTo(7.5, 10);
    // 100 − 32 (fill) − 7.5 (one failure in two) − cache penalty not applicable (2 requests) = 60.5 → 61.
    expect(session?.score).toBe(61);
    expect(session?.grade).toBe('C');
  });

  it('gives no score without output tokens, and no fill without a known window', async () => {
    const sessions = await scored([
      record({ id: 'a', at: start, session: 'silent', requested: 'big', served: 'big', input: 10_000, output: 0 }),
      record({ id: 'b', at: start, session: 'unknown-window', requested: 'mystery', served: 'mystery', input: 10_000, output: 400 }),
    ]);
    const silent = sessions.find((entry) => entry.sessionId === 'silent');
    expect(silent?.score).toBeNull();
    expect(silent?.unscoredReason).toMatch(/no output/);
    const unknown = sessions.find((entry) => entry.sessionId === 'unknown-window');
    expect(unknown?.contextFill).toBeNull();
    expect(unknown?.score).toBe(100);
  });

  it('detects a compaction, failovers and tool recoveries', async () => {
    const [session] = await scored([
      record({ id: 'a', at: start, session: 'c', requested: 'big', served: 'big', input: 40_000, output: 2_000, cacheRead: 30_000 }),
      record({ id: 'b', at: start + 1, session: 'c', requested: 'big', served: 'big', input: 60_000, output: 2_000, cacheRead: 40_000, attempts: 2 }),
      record({ id: 'c', at: start + 2, session: 'c', requested: 'big', served: 'big', input: 12_000, output: 2_000, cacheRead: 10_000, full: 10, sent: 5, recoveries: 1 }),
    ]);
    expect(session?.stats.compactions).toBe(1);
    expect(session?.stats.failovers).toBe(1);
    expect(session?.stats.recoveredFailovers).toBe(1);
    expect(session?.stats.toolRecoveries).toBe(1);
    expect(session?.stats.latestInputTokens).toBe(12_000);
    // 100 − 5 (compaction) − 1 (failover) − 2 (tool recovery); output ratio 6,000/112,000 > 2%, cache 71% ≥ 50%.
    expect(session?.score).toBe(92);
  });

  it('grades on fixed boundaries', () => {
    expect([100, 95, 94, 85, 84, 70, 69, 55, 54, 40, 39, 0].map(gradeFor)).toEqual(['S', 'S', 'A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'F', 'F']);
  });
});
