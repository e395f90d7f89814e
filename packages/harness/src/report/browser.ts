// A headless look at a report: the system Chromium (Debian's package, which setup installs; no
// browser download) driven by playwright-core. Used for report.png and by the browser tests.
import { existsSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Nothing in the background: the page is the only thing the browser loads. */
const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--no-first-run',
  '--disable-features=Translate,OptimizationHints,MediaRouter',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (npm run bench does it), or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: QUIET_FLAGS });
}

/** Opens a page and waits until every chart is drawn (or one failed); returns how long that took. */
export async function openReport(
  page: Page,
  htmlPath: string,
  timeoutMs = 30_000,
): Promise<{ ms: number; drawn: number; failed: string | null }> {
  const t0 = performance.now();
  await page.goto(pathToFileURL(htmlPath).href);
  await page.waitForFunction(
    () => document.body.dataset.chartsDrawn !== undefined || document.body.dataset.chartsFailed !== undefined,
    null,
    { timeout: timeoutMs },
  );
  const ms = performance.now() - t0;
  const { drawn, failed } = await page.evaluate(() => ({
    drawn: Number(document.body.dataset.chartsDrawn ?? 0),
    failed: document.body.dataset.chartsFailed ?? null,
  }));
  return { ms, drawn, failed };
}

/** report.png: the top of the rendered page (method, what to pick, the first rows and charts). */
export async function screenshotReport(htmlPath: string, pngPath: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1800 } });
    const { failed } = await openReport(page, htmlPath);
    if (failed) throw new Error(`a chart of ${htmlPath} failed to draw: ${failed}`);
    await page.screenshot({ path: pngPath });
  } finally {
    await browser.close();
  }
}

/** npm run report -- --check: the file's size, and how long Chromium takes to draw it, with any console error. */
export async function checkReport(
  htmlPath: string,
): Promise<{ bytes: number; ms: number; drawn: number; failed: string | null; errors: string[] }> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    return { bytes: statSync(htmlPath).size, ...(await openReport(page, htmlPath)), errors };
  } finally {
    await browser.close();
  }
}
