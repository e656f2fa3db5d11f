// Takes the screenshots of docs/: the play page with a 4x4 Loopover part-way through its
// solution (web.png), the 3D cube part-way through its solve animation (web-cube.png), a
// pyraminx definition file in 3D (web-def.png), the groups page with the Cayley graph of S3
// (web-groups.png) and the analysis page's chart (web-analysis.png).
//   node screenshot.mjs http://127.0.0.1:PORT/ ../../docs
import { chromium } from 'playwright-core';
import path from 'node:path';

const [url, dir] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const shot = (page, name) => page.screenshot({ path: path.join(dir, name), fullPage: true });

let page = await browser.newPage({ viewport: { width: 900, height: 760 } });
await page.goto(`${url}#play/loopover?size=4x4&seed=3`);
await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 3');
await page.keyboard.press('h');
await page.waitForFunction(() => document.getElementById('hint-text').textContent.startsWith('Next:'));
await page.click('#solve');
await page.locator('#solution').waitFor({ state: 'visible', timeout: 30000 });
await page.click('#step-play');  // pause the animation
await page.click('#step-start');
for (let i = 0; i < 6; ++i) await page.click('#step-next');
await shot(page, 'web.png');
await page.close();

page = await browser.newPage({ viewport: { width: 900, height: 900 } });
await page.goto(`${url}#play/cube?seed=11`);
await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 11');
await page.locator('#board twisty-player').waitFor();
await page.waitForTimeout(2000);
await page.click('#solve');
await page.locator('#solution').waitFor({ state: 'visible', timeout: 30000 });
await page.waitForFunction(() => /at move [5-9]/.test(document.getElementById('solution-moves').textContent), null, { timeout: 30000 });
await page.click('#step-play');  // pause
await page.waitForTimeout(800);
await shot(page, 'web-cube.png');
await page.close();

page = await browser.newPage({ viewport: { width: 900, height: 900 } });
await page.goto(`${url}#play/def?example=pyraminx-tips&seed=5`);
await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 5');
await page.locator('#board twisty-player').waitFor();
await page.waitForTimeout(6000);
await shot(page, 'web-def.png');
await page.close();

page = await browser.newPage({ viewport: { width: 900, height: 760 } });
await page.goto(`${url}#groups`);
await page.click('#group-cayley');
await page.locator('#group-graph img').waitFor({ timeout: 30000 });
await shot(page, 'web-groups.png');
await page.close();

page = await browser.newPage({ viewport: { width: 900, height: 760 } });
await page.goto(`${url}#analysis`);
await page.selectOption('#bfs-puzzle', 'sliding');
await page.fill('#bfs-size', '3x3');
await page.click('#bfs-run');
await page.waitForFunction(() => document.getElementById('bfs-status').textContent === 'Done.', null, { timeout: 60000 });
await shot(page, 'web-analysis.png');
await browser.close();
