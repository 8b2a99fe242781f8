import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Budgets, not speeds: the suite shares two cores with other work on CI and here. At load average 24 a whole
    // run overran 20 s in a test that loads the topic model in beforeAll, a report over a fresh ledger and two
    // cluster instances starting; a hung test still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Several suites start real servers on loopback; two workers match the machine's two cores.
    maxWorkers: 2,
    // Every upstream body forwarded from the client's bytes is checked against the body object (raw-body.ts).
    env: { HERMES_ROUTER_VERIFY_RAW_BODIES: '1' },
  },
});
