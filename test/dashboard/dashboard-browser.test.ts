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
  ? `dashboard browser test skipped: ${chromiumPath} is missing (apt-get install -y chromium)`
  : playwright === undefined
    ? 'dashboard browser test skipped: playwright-core cannot be imported'
    : undefined;
if (skipReason) console.warn(skipReason);

const artifacts = join(process.cwd(), 'test-artifacts');
const records = seededRecords(600);
let harness: DashboardHarness;

async function servedModel(url: string, model: string): Promise<string | null> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer client' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
  });
  await response.text();
  return response.headers.get('x-hermes-router-model');
}

describe.skipIf(skipReason !== undefined)('dashboard in headless Chromium', () => {
  beforeAll(async () => {
    harness = await startDashboardHarness(records);
    mkdirSync(artifacts, { recursive: true });
  }, 60_000);
  afterAll(async () => harness?.close());

  it('logs in, shows the seeded ledger, opens a session and flips a model switch the gateway honours', async () => {
    if (playwright === undefined) return;
    const browser = await playwright.chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems: string[] = [];
      page.on('console', (message) => {
        // The first visit asks /auth/session and is told 401 (not logged in yet): expected, and logged by Chromium.
        if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));

      await page.goto(`${harness.url}/dashboard`);
      await page.locator('#admin-key').fill(adminKey);
      await page.locator('#login-form button[type=submit]').click();
      const requests = page.locator('[data-testid=total-requests]');
      await requests.waitFor();
      // The range selector starts at 30 days; the seeded days are in the past, so look at everything.
      await page.locator('#range').selectOption('all');
      await expect.poll(async () => requests.textContent(), { timeout: 15_000 }).toBe(new Intl.NumberFormat('en-US').format(records.length));
      const spend = records.reduce((total, row) => total + (row.costUsd ?? 0), 0);
      expect(await page.locator('[data-testid=total-spend]').textContent()).toBe(`$${spend.toFixed(2)}`);
      const input = records.reduce((total, row) => total + (row.usage?.inputTokens ?? 0), 0);
      expect(await page.locator('[data-testid=total-input]').textContent()).toBe(new Intl.NumberFormat('en-US').format(input));
      expect(await page.locator('svg.chart').count()).toBeGreaterThanOrEqual(3);
      await page.screenshot({ path: join(artifacts, 'dashboard-overview.png'), fullPage: true });

      await page.locator('a[data-view=sessions]').click();
      await page.locator('[data-testid=sessions-table] a', { hasText: 'session-4' }).click();
      await page.locator('[data-testid=session-score]').waitFor();
      const sessionRows = records.filter((row) => row.sessionId === 'session-4').length;
      expect(await page.locator('.panel table tbody tr').last().locator('td').first().textContent()).toBe(String(sessionRows));
      await page.screenshot({ path: join(artifacts, 'dashboard-session.png'), fullPage: true });

      expect(await servedModel(harness.url, 'big')).toBe('lab/big');
      await page.locator('a[data-view=models]').click();
      const bigSwitch = page.locator('[data-testid="switch-lab/big"]');
      await bigSwitch.waitFor();
      expect(await bigSwitch.isChecked()).toBe(true);
      await bigSwitch.uncheck();
      await expect.poll(async () => page.locator('#switch-status').textContent(), { timeout: 15_000 }).toContain('lab/big switched off');
      expect(harness.gateway.gateway.switches.isEnabled(harness.gateway.gateway.catalog.find('lab', 'big')!)).toBe(false);
      // The gateway honours it at once: the next request for big goes to its fallback.
      expect(await servedModel(harness.url, 'big')).toBe('lab/cheap');
      await page.screenshot({ path: join(artifacts, 'dashboard-models.png'), fullPage: true });
      await bigSwitch.check();
      await expect.poll(async () => page.locator('#switch-status').textContent(), { timeout: 15_000 }).toContain('lab/big switched on');
      expect(await servedModel(harness.url, 'big')).toBe('lab/big');

      // A reload keeps the session (HttpOnly cookie): the page asks /auth/session for its CSRF token again.
      await page.reload();
      await page.locator('[data-testid="switch-lab/big"]').waitFor();
      expect(await page.locator('#login').isHidden()).toBe(true);

      await page.locator('#logout').click();
      await page.locator('#login').waitFor({ state: 'visible' });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
