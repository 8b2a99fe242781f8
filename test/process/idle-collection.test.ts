import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the idle-time collection in this Node', () => {
  it('collects garbage without --expose-gc on the command line (a release where that stops working fails here)', () => {
    // A child that allocates ~60 MB of garbage it then drops, and collects it as the gateway does when quiet.
    const script = `
      import { collectGarbage } from ${JSON.stringify(new URL('../../src/cli/idle-collection.ts', import.meta.url).href)};
      let garbage = Array.from({ length: 300000 }, (_, index) => ({ index, text: 'x'.repeat(100) + index }));
      const before = process.memoryUsage().heapUsed;
      garbage = undefined;
      collectGarbage();
      const after = process.memoryUsage().heapUsed;
      process.stdout.write(JSON.stringify({ before, after, exposed: typeof globalThis.gc }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const { before, after, exposed } = JSON.parse(child.stdout) as { before: number; after: number; exposed: string };
    expect(before - after).toBeGreaterThan(40 * 1024 * 1024);
    // The collection borrows `gc` from a context of its own: the gateway's global object stays as it was.
    expect(exposed).toBe('undefined');
  });
});
