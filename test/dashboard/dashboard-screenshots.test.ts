import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, type DashboardHarness, seededRecords, startDashboardHarness } from './dashboard-harness.js';

const chromiumPath = '/usr/bin/chromium';
type PlaywrightCore = typeof import('playwright-core');
let playwright: PlaywrightCore | undefined;
try {
  playwright = await import('playwright-core');
} catch {
  playwright = undefined;
}
const skipReason = !existsSync(chromiumPath)
  ? `dashboard screenshots skipped: ${chromiumPath} is missing (apt-get install -y chromium)`
  : playwright === undefined
    ? 'dashboard screenshots skipped: playwright-core cannot be imported'
    : undefined;
if (skipReason) console.warn(skipReason);

const artifacts = join(process.cwd(), 'test-artifacts');
let harness: DashboardHarness;

describe.skipIf(skipReason !== undefined)('dashboard layout at 800 and 1400 px (screenshots in test-artifacts/)', () => {
  beforeAll(async () => {
    // One fingerprinted session (an agent that sends no session id, as Hermes does) beside the seeded ones.
    const records = seededRecords(600);
    const fingerprinted = { ...records[1]!, requestId: 'fp-row', sessionId: 'fp_0123456789abcdef01234567' };
    // A Hermes session as the gateway records it: agent and first prompt on its first request, the title its
    // side request generated, and a later turn that grew the tool surface (the prompt written to the cache again).
    const hermes = 'fp_89abcdef0123456789abcdef';
    const base = records[3]!;
    const at = (minutes: number) => base.startedAt + minutes * 60_000;
    const usage = (input: number, read: number, write: number) => ({ inputTokens: input, outputTokens: 400, cacheReadTokens: read, cacheWriteTokens: write, reasoningTokens: 0 });
    const labelled = [
      { ...base, requestId: 'hermes-1', sessionId: hermes, startedAt: at(0), usage: usage(18_000, 0, 17_500), decision: { ...base.decision, session: { id: hermes, source: 'fingerprint' as const, agent: 'Hermes Agent', firstPrompt: 'Why does the nightly build on the arm64 runners take twice as long as on x86 since last week? Look at the CI logs and the…' } } },
      { ...base, requestId: 'hermes-title', sessionId: hermes, startedAt: at(1), usage: usage(600, 0, 0), decision: { session: { id: hermes, source: 'fingerprint' as const, title: 'Slow arm64 nightly builds' } } },
      { ...base, requestId: 'hermes-2', sessionId: hermes, startedAt: at(3), usage: usage(21_000, 17_500, 3_000), decision: { ...base.decision, session: { id: hermes, source: 'fingerprint' as const, agent: 'Hermes Agent' } } },
      { ...base, requestId: 'hermes-3', sessionId: hermes, startedAt: at(6), usage: usage(26_000, 0, 25_500), decision: { ...base.decision, tools: { ...base.decision.tools!, anticipatedToolsets: ['browser', 'web'] } } },
      { ...base, requestId: 'hermes-4', sessionId: hermes, startedAt: at(9), usage: usage(27_000, 25_500, 1_200), decision: { ...base.decision } },
    ];
    harness = await startDashboardHarness([...records, fingerprinted, ...labelled]);
    mkdirSync(artifacts, { recursive: true });
  }, 60_000);
  afterAll(async () => harness?.close());

  it.each([800, 1400])('at %i px: no controls before login, nothing cut off, charts inside the page, cards short', async (width) => {
    if (playwright === undefined) return;
    const browser = await playwright.chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${harness.url}/`);
      await page.locator('#login').waitFor({ state: 'visible' });
      expect(await page.locator('#controls').isVisible()).toBe(false);
      expect(await page.locator('#tabs').isVisible()).toBe(false);
      await page.screenshot({ path: join(artifacts, `dashboard-login-${width}.png`) });

      await page.locator('#admin-key').fill(adminKey);
      await page.locator('#login-form button[type=submit]').click();
      await page.locator('[data-testid=total-requests]').waitFor();
      await page.locator('#range').selectOption('all');
      await expect.poll(async () => page.locator('[data-testid=total-requests]').textContent(), { timeout: 15_000 }).toBe('606');
      await page.waitForTimeout(200);
      // Nothing wider than the window: no horizontal scroll, every chart inside the viewport.
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      const charts = await page.locator('svg.chart').evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().right));
      expect(charts.length).toBeGreaterThanOrEqual(3);
      for (const right of charts) expect(right).toBeLessThanOrEqual(width);
      // Every axis text lies inside its chart (no label cut at the edge).
      const cut = await page.locator('svg.chart').evaluateAll((nodes) =>
        nodes.flatMap((node) => {
          const box = node.getBoundingClientRect();
          return [...node.querySelectorAll('text')]
            .map((text) => ({ text: text.textContent, rect: text.getBoundingClientRect() }))
            .filter(({ rect }) => rect.left < box.left - 0.5 || rect.right > box.right + 0.5)
            .map(({ text }) => text);
        }),
      );
      expect(cut).toEqual([]);
      // Cards: a number and a short label; the method sits behind a details toggle, not in a paragraph.
      const notes = await page.locator('.card .note').allTextContents();
      for (const note of notes) expect(note.length, note).toBeLessThanOrEqual(60);
      // Chart axes: round tick values.
      const axes = await page.locator('svg.chart').evaluateAll((nodes) =>
        nodes.map((node) => [...node.querySelectorAll('text.tick')].map((tick) => Number(tick.getAttribute('data-value')))),
      );
      for (const ticks of axes) {
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
        const mantissa = step / 10 ** Math.floor(Math.log10(step));
        expect([1, 2, 5].some((round) => Math.abs(mantissa - round) < 1e-9), `step ${step}`).toBe(true);
        ticks.forEach((tick, index) => expect(tick).toBeCloseTo(index * step, 9));
      }
      await page.screenshot({ path: join(artifacts, `dashboard-overview-${width}.png`), fullPage: true });

      await page.locator('a[data-view=sessions]').click();
      await page.locator('[data-testid=sessions-table]').waitFor();
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      // The table fits its panel: no column cut at the edge.
      expect(await page.evaluate<number>("(() => { const table = document.querySelector('[data-testid=sessions-table]'); return table.scrollWidth - table.parentElement.clientWidth; })()")).toBeLessThanOrEqual(0);
      // Sessions are told apart by model and time, and a fingerprint is not shown as a 24-character hash.
      const headers = await page.locator('[data-testid=sessions-table] th').allTextContents();
      expect(headers).toContain('Model');
      const labels = await page.locator('[data-testid=sessions-table] td a').allTextContents();
      expect(labels).toContain('session 012345');
      expect(labels.some((label) => /^fp_[0-9a-f]{20,}/.test(label))).toBe(false);
      // A session with a generated title is named by it, its agent beside it.
      expect(labels).toContain('Slow arm64 nightly builds');
      expect(headers).toContain('Agent');
      expect(await page.locator('[data-testid=sessions-table] td', { hasText: 'Hermes Agent' }).count()).toBeGreaterThanOrEqual(1);
      await page.screenshot({ path: join(artifacts, `dashboard-sessions-${width}.png`), fullPage: true });

      // Its page: title, first prompt, agent and model; what caching saved; each surface change with its cost.
      await page.locator('[data-testid=sessions-table] a', { hasText: 'Slow arm64 nightly builds' }).click();
      await page.locator('[data-testid=session-title]').waitFor();
      expect(await page.locator('[data-testid=session-title]').textContent()).toBe('Slow arm64 nightly builds');
      expect(await page.locator('[data-testid=session-first-prompt]').textContent()).toContain('Why does the nightly build on the arm64 runners');
      expect(await page.locator('[data-testid=session-head]').textContent()).toContain('Hermes Agent');
      expect(await page.locator('[data-testid=session-cache-saved]').textContent()).toMatch(/^\$\d/);
      expect(await page.locator('[data-testid=session-surface-changes]').textContent()).toBe('1');
      const change = await page.locator('[data-testid=surface-changes] tbody tr').allTextContents();
      expect(change).toHaveLength(1);
      expect(change[0]).toMatch(/grew: browser, web.*25,500.*\$0\.\d{4}/);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(artifacts, `dashboard-session-${width}.png`), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
