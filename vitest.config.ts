import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Several suites start real servers on loopback; two workers match the machine's two cores.
    maxWorkers: 2,
    // Every upstream body forwarded from the client's bytes is checked against the body object (raw-body.ts).
    env: { HERMES_ROUTER_VERIFY_RAW_BODIES: '1' },
  },
});
