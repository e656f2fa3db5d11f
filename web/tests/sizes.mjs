// Measures what the page downloads (docs/web.md's size table): the first load, and what opening
// the 3D cube adds (cubing.js's chunks), as sent by the server (gzip) and uncompressed.
//   node sizes.mjs http://127.0.0.1:PORT/
import { chromium } from 'playwright-core';

const [url] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
for (const [what, hash] of [['first load', ''], ['3D cube', '#play/cube?seed=1'], ['pyraminx file', '#play/def?example=pyraminx&seed=1']]) {
  const page = await browser.newPage();
  await page.goto(url + hash);
  if (hash) await page.locator('#board twisty-player').waitFor();
  await page.waitForTimeout(3000);
  const files = await page.evaluate(() => performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
    .filter((e) => !e.name.includes('/api/'))
    .map((e) => ({ name: new URL(e.name).pathname, sent: e.encodedBodySize, size: e.decodedBodySize })));
  const sum = (list, k) => list.reduce((a, f) => a + f[k], 0);
  const chunks = files.filter((f) => f.name.startsWith('/js/chunks/'));
  console.log(`${what}: ${kb(sum(files, 'sent'))} sent (${kb(sum(files, 'size'))}), of which 3D chunks ${chunks.length}: ${kb(sum(chunks, 'sent'))} sent (${kb(sum(chunks, 'size'))})`);
  for (const f of files) console.log(`  ${f.name} ${kb(f.sent)} (${kb(f.size)})`);
  await page.close();
}
await browser.close();
