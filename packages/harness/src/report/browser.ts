// A headless look at a report: a Chromium or Chrome already installed (Debian's chromium, which setup installs where
// apt has it; no browser download) driven by playwright-core. Used for report.png and by the browser tests.
import { accessSync, closeSync, constants, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The browsers looked for on PATH, in this order; scripts/setup.sh (find_browser) looks for the same ones. */
export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * A snap, or a script that runs one (Ubuntu's chromium-browser is a transition package to the chromium snap): not a
 * browser to drive, as the snap may not be installed and its confinement keeps it from playwright's profile in /tmp.
 */
export function isSnap(path: string): boolean {
  try {
    const real = realpathSync(path);
    if (real.startsWith('/snap/') || real === '/usr/bin/snap') return true;
    const head = Buffer.alloc(4096);
    const fd = openSync(real, 'r');
    try {
      return head
        .subarray(0, readSync(fd, head, 0, head.length, 0))
        .toString('latin1')
        .includes('/snap/');
    } finally {
      closeSync(fd);
    }
  } catch {
    return true;
  }
}

const isExecutableFile = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The browser to drive: CHROMIUM_PATH (setup exports the one it found), else the first of BROWSER_NAMES on PATH. */
export function findBrowser(env: Record<string, string | undefined> = process.env): string | null {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  const dirs = (env.PATH ?? '').split(':').filter(Boolean);
  for (const name of BROWSER_NAMES)
    for (const dir of dirs) {
      const path = join(dir, name);
      if (isExecutableFile(path) && !isSnap(path)) return path;
    }
  return null;
}

/** Why no browser starts, in one line that names the fix. */
export const NO_BROWSER =
  `no Chromium or Chrome found (${BROWSER_NAMES.join(', ')} on PATH, not a snap): install one ` +
  '(Debian: apt-get install chromium; or Google Chrome), or set CHROMIUM_PATH to its executable';

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
  const executablePath = findBrowser();
  if (!executablePath) throw new Error(NO_BROWSER);
  if (!existsSync(executablePath))
    throw new Error(`CHROMIUM_PATH=${executablePath} does not exist: unset it, or name a Chromium or Chrome`);
  return chromium.launch({ executablePath, headless: true, args: QUIET_FLAGS });
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
export async function screenshotReport(htmlPath: string): Promise<Uint8Array> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1800 } });
    const { failed } = await openReport(page, htmlPath);
    if (failed) throw new Error(`a chart of ${htmlPath} failed to draw: ${failed}`);
    return await page.screenshot();
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
