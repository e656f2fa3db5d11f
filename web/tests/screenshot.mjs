// Takes docs/web.png: the play page with a 4x4 Loopover part-way through its solution.
//   node screenshot.mjs http://127.0.0.1:PORT/ ../../docs/web.png
import { chromium } from 'playwright-core';

const [url, out] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 900, height: 760 } });
await page.goto(`${url}#play/loopover?size=4x4&seed=3`);
await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 3');
await page.keyboard.press('h');
await page.waitForFunction(() => document.getElementById('hint-text').textContent.startsWith('Next:'));
await page.click('#solve');
await page.locator('#solution').waitFor({ state: 'visible', timeout: 30000 });
await page.click('#step-play');  // pause the animation
await page.click('#step-start');
for (let i = 0; i < 6; ++i) await page.click('#step-next');
await page.screenshot({ path: out, fullPage: true });
await browser.close();
