// Browser tests of the web app: `permuzzle serve` on a free port, Debian's chromium driven
// headless by playwright-core (no browser download). Run with `make web-test`, or here:
//   PERMUZZLE_CLI=../../build/release/permuzzle npm test
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = process.env.PERMUZZLE_CLI || path.join(here, '../../build/release/permuzzle');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// The flags this closed network needs (no background connections to Google's hosts).
// WebGL (the 3D puzzles) through SwiftShader, Chromium's software renderer: no GPU needed.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let server;
let url;
let browser;

// Starts `permuzzle serve --port 0` and reads the one line with its URL.
function startServer() {
  return new Promise((resolve, reject) => {
    // A generous time limit: on a fresh machine the first 4x4 Loopover solve builds its tables.
    const child = spawn(CLI, ['--quiet', '--time-limit', '120', 'serve', '--port', '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL from the server: ${out}`)), 10000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
}

before(async () => {
  ({ child: server, url } = await startServer());
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
});

async function open(hash = '') {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + hash);
  page.errors = errors;
  return page;
}

test('the page opens with a board, small enough to load fast', async () => {
  const page = await open();
  const bytes = [];
  assert.match(await page.title(), /permuzzle/);
  await page.locator('#board .cell').first().waitFor();
  // First load: the page and its modules, well under 300 KB.
  const sizes = await page.evaluate(() => performance.getEntriesByType('resource')
    .map((e) => e.encodedBodySize).concat(performance.getEntriesByType('navigation')[0].encodedBodySize));
  bytes.push(...sizes);
  const total = bytes.reduce((a, b) => a + b, 0);
  assert.ok(total > 0 && total < 300 * 1024, `first load ${total} bytes`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a scrambled 3x3 sliding puzzle solved by following the hints with the keyboard', async () => {
  const page = await open('#play/sliding?size=3x3');
  await page.fill('#seed', '7');
  await page.click('#scramble');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 7');
  await page.focus('#board');
  let first = null;
  let presses = 0;
  for (let i = 0; i < 40; ++i) {
    if (await page.locator('#solved').isVisible()) break;
    await page.keyboard.press('h');
    await page.waitForFunction(() => document.getElementById('hint-text').textContent.startsWith('Next:'));
    const key = await page.getAttribute('#hint-text', 'data-key');
    const left = Number(await page.getAttribute('#hint-text', 'data-left'));
    if (first === null) first = left;
    assert.equal(left, first - presses, 'each hint is one move closer (optimal)');
    const before = await page.textContent('#moves');
    await page.keyboard.press(key);
    await page.waitForFunction((b) => document.getElementById('moves').textContent !== b, before);
    presses += 1;
  }
  const solved = await page.textContent('#solved');
  assert.match(solved, new RegExp(`^Solved in ${presses} moves? \\(`));
  assert.equal(presses, first);
  assert.ok(first > 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a 4x4 Loopover solved with the solve button ends on the solved board', async () => {
  const page = await open('#play/loopover?size=4x4&seed=3');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 3');
  const start = await page.locator('#board .cell').allTextContents();
  assert.notDeepEqual(start.map(Number), Array.from({ length: 16 }, (_, i) => i + 1));
  // A drag of two cells to the right shifts the top row twice; undo takes both back.
  const box = await page.locator('#board .cell').first().boundingBox();
  await page.mouse.move(box.x + 20, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 140, box.y + 22, { steps: 12 });
  await page.mouse.up();
  await page.waitForFunction(() => document.getElementById('moves').textContent === '2');
  const dragged = await page.locator('#board .cell').allTextContents();
  assert.deepEqual(dragged.slice(0, 4), [start[2], start[3], start[0], start[1]]);
  assert.deepEqual(dragged.slice(4), start.slice(4));
  await page.click('#undo');
  await page.click('#undo');
  assert.deepEqual(await page.locator('#board .cell').allTextContents(), start);
  await page.click('#solve');
  await page.locator('#solution').waitFor({ state: 'visible', timeout: 30000 });
  await page.click('#step-end');
  const cells = await page.locator('#board .cell').allTextContents();
  assert.deepEqual(cells.map(Number), Array.from({ length: 16 }, (_, i) => i + 1));
  assert.match(await page.textContent('#solved'), /Solved by the solver in \d+ moves?/);
  assert.match(await page.textContent('#solution-moves'), /optimal/);
  await page.close();
});

test("the cube group's order on the groups page", async () => {
  const page = await open('#groups');
  await page.selectOption('#group-preset', { label: "Rubik's cube (48 facelets, GAP's numbering)" });
  await page.click('#group-order');
  await page.waitForFunction(() => document.getElementById('group-result').textContent.includes('order'));
  assert.match(await page.textContent('#group-result'), /order: 43252003274489856000/);
  await page.close();
});

test('bad input gets a clear message: a malformed cycle, an unsolvable position', async () => {
  const page = await open('#groups');
  await page.fill('#generators', '(1,2,3)\n(1,2');
  await page.click('#group-order');
  await page.waitForFunction(() => document.getElementById('group-error').textContent !== '');
  const message = await page.textContent('#group-error');
  assert.match(message, /\(1,2/);
  assert.match(message, /expected|missing|unterminated|\)/i);
  // The 8-puzzle with two tiles swapped: odd, so not solvable.
  await page.goto(`${url}#play/sliding?size=3x3&pos=2.1.3.4.5.6.7.8.0`);
  await page.waitForFunction(() => document.getElementById('play-error').textContent !== '');
  assert.match(await page.textContent('#play-error'), /cannot be solved/);
  // A click on the tile next to the gap moves it (after a Loopover's drag handlers were set).
  await page.goto(`${url}#play/loopover?size=3x3`);
  await page.locator('#board .cell').first().waitFor();
  await page.goto(`${url}#play/sliding?size=3x3&pos=1.2.3.4.5.6.7.0.8`);
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.blank').length === 1);
  await page.locator('#board .cell', { hasText: '8' }).click();
  await page.waitForFunction(() => !document.getElementById('solved').hidden);
  assert.match(await page.textContent('#solved'), /^Solved in 1 move \(/);
  await page.close();
});

test('a long job is cancelled from the analysis page', async () => {
  const page = await open('#analysis');
  await page.selectOption('#bfs-puzzle', 'loopover');
  await page.fill('#bfs-size', '3x4');  // 479,001,600 positions: minutes of work
  await page.click('#bfs-run');
  await page.waitForFunction(() => !document.getElementById('bfs-cancel').disabled);
  const t0 = Date.now();
  await page.click('#bfs-cancel');
  await page.waitForFunction(() => document.getElementById('bfs-status').textContent === 'Cancelled.');
  assert.ok(Date.now() - t0 < 2000, `cancelled after ${Date.now() - t0} ms`);
  assert.equal(await page.textContent('#bfs-error'), '');
  // A long solve on the play page (a random 4x5 sliding puzzle: IDA* without pattern databases)
  // runs as a job too, with its own Cancel button.
  await page.goto(`${url}#play/sliding?size=4x5&seed=1`);
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 1');
  await page.click('#solve');
  await page.locator('#solve-cancel').waitFor({ state: 'visible' });
  const t1 = Date.now();
  await page.click('#solve-cancel');
  await page.waitForFunction(() => document.getElementById('hint-text').textContent === 'Solve cancelled.');
  assert.ok(Date.now() - t1 < 2000, `solve cancelled after ${Date.now() - t1} ms`);
  assert.ok(await page.locator('#solve-cancel').isHidden());
  // And a small BFS runs to the end, with its chart and antipodes.
  await page.goto(`${url}#analysis`);
  await page.selectOption('#bfs-puzzle', 'sliding');
  await page.fill('#bfs-size', '2x3');
  await page.click('#bfs-run');
  await page.waitForFunction(() => document.getElementById('bfs-status').textContent === 'Done.');
  assert.match(await page.textContent('#bfs-summary'), /360 positions; God's number 21/);
  assert.equal(await page.locator('#bfs-chart rect').count(), 22);
  await page.close();
});

test('a puzzle from an uploaded definition file: scrambled, then solved by the engine', async () => {
  // The project's 2x2x2 with one corner fixed (data/puzzles/), through the real `def` commands.
  const page = await open('#play/def');
  await page.locator('#def-file').setInputFiles(path.join(here, '../../data/puzzles/2x2x2-fixed-corner.tws'));
  await page.waitForFunction(() => document.getElementById('def-name').textContent === '2x2x2-fixed-corner.tws');
  await page.fill('#seed', '5');
  await page.click('#scramble');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 5');
  await page.click('#solve');
  await page.locator('#solution').waitFor({ state: 'visible', timeout: 30000 });
  await page.click('#step-end');
  await page.waitForFunction(() => !document.getElementById('solved').hidden);
  assert.match(await page.textContent('#solved'), /Solved by the solver in \d+ moves?/);
  // God's number of this puzzle is 11 (OEIS A079761): an optimal solution is never longer.
  const moves = Number(/in (\d+) move/.exec(await page.textContent('#solved'))[1]);
  assert.ok(moves >= 1 && moves <= 11, `${moves} moves`);
  assert.match(await page.textContent('#solution-moves'), /optimal/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
