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
    harness = await startDashboardHarness([...records, fingerprinted]);
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
      await expect.poll(async () => page.locator('[data-testid=total-requests]').textContent()).toBe('601');
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
      await page.screenshot({ path: join(artifacts, `dashboard-sessions-${width}.png`), fullPage: true });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
