// Browser tests of the web app: `permuzzle serve` on a free port, Debian's chromium driven
// headless by playwright-core (no browser download). Run with `make web-test`, or here:
//   PERMUZZLE_CLI=../../build/release/permuzzle npm test
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
// How much slower than an idle machine this one is now: 1 + its load average per core. The waits
// and time bounds below are scaled by it, so that a busy machine (CI's is shared; `make
// test-under-load`) stretches them instead of failing them, and an idle one keeps them tight.
const slowdown = () => 1 + os.loadavg()[0] / os.cpus().length;
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
    // A generous time limit, though the 4x4 Loopover's tables are built before (below).
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
  // On a fresh machine the first 4x4 Loopover solve builds a 260 MB pattern database (12 s on two
  // idle cores, 24 s of CPU): built here, before any test's time limit runs, so that the solve
  // button's test times the solve and not the machine's load (beside two busy processes it once
  // timed out at 98 s). The server reads the same cache.
  await promisify(execFile)(CLI, ['--quiet', 'loopover', 'solve', '--size', '4x4',
    '11 15 9 5 16 1 4 3 7 13 2 14 10 6 8 12'], { maxBuffer: 1 << 20 });
  ({ child: server, url } = await startServer());
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
});

async function open(hash = '') {
  const page = await browser.newPage();
  page.setDefaultTimeout(30000 * slowdown());
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url + hash);
  page.errors = errors;
  return page;
}

// Waits for the play page's solution, or fails at once with the page's own words when the solve
// ended in an error (which would otherwise only show as a timeout).
async function waitForSolution(page, timeout) {
  await page.waitForFunction(() => !document.getElementById('solution').hidden ||
    document.getElementById('play-error').textContent !== '', null, { timeout });
  const error = await page.textContent('#play-error');
  assert.equal(error, '', `the solve failed: ${error} (hint: ${await page.textContent('#hint-text')})`);
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
  // The 3D code (cubing.js, three.js) is not part of it: a 3D puzzle loads it when opened.
  const names = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  assert.deepEqual(names.filter((n) => n.includes('/js/chunks/')), []);
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
  await waitForSolution(page, 30000 * slowdown());
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
  // The 3x4 sliding puzzle: 239,500,800 positions, half a minute of work (the 3x4 Loopover,
  // searched over its symmetry classes, now takes a second).
  await page.selectOption('#bfs-puzzle', 'sliding');
  await page.fill('#bfs-size', '3x4');
  await page.click('#bfs-run');
  await page.waitForFunction(() => !document.getElementById('bfs-cancel').disabled);
  const t0 = Date.now();
  await page.click('#bfs-cancel');
  await page.waitForFunction(() => document.getElementById('bfs-status').textContent === 'Cancelled.');
  assert.ok(Date.now() - t0 < 2000 * slowdown(), `cancelled after ${Date.now() - t0} ms`);
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
  assert.ok(Date.now() - t1 < 2000 * slowdown(), `solve cancelled after ${Date.now() - t1} ms`);
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
  await waitForSolution(page, 30000 * slowdown());
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

test("an example's phase file: the 3x3x3 solved in Kociemba's two phases (def solve --phases FILE)", async () => {
  const page = await open('#play/def?example=3x3x3&seed=4');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 4');
  // The choice names the example's phase file, served from data/puzzles/.
  await page.waitForFunction(() => {
    const o = document.querySelector('#def-phases option[value="file"]');
    return o && !o.disabled && o.textContent === 'in phases (3x3x3-kociemba.phases)';
  });
  await page.selectOption('#def-phases', 'file');
  await page.click('#solve');
  await waitForSolution(page, 60000 * slowdown());
  await page.click('#step-end');
  await page.waitForFunction(() => !document.getElementById('solved').hidden);
  // Each phase optimal: at most 12 moves into <U, D, R2, L2, F2, B2> and 18 within it
  // (Kociemba's phase bounds), so never more than 30.
  const moves = Number(/in (\d+) move/.exec(await page.textContent('#solved'))[1]);
  assert.ok(moves >= 1 && moves <= 30, `${moves} moves`);
  assert.doesNotMatch(await page.textContent('#solution-moves'), /optimal/);
  // Another example without a phase file takes the choice away.
  await page.selectOption('#def-example', 'skewb');
  await page.waitForFunction(() => document.getElementById('puzzle').value === 'def?example=skewb');
  await page.waitForFunction(() => document.querySelector('#def-phases option[value="file"]').disabled
    && document.getElementById('def-phases').value === '');
  assert.deepEqual(page.errors, []);
  await page.close();
});

// --- The 3D puzzles (cubing.js's <twisty-player>, WebGL through SwiftShader) -----------------

// The chromatic colours of a screenshot of the board, bucketed by hue (red, orange, yellow,
// green, blue): a drawn cube shows several; an empty or failed canvas none.
async function stickerColours(page) {
  const png = (await page.locator('#board').screenshot()).toString('base64');
  return page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, img.width, img.height).data;
    const buckets = { red: 0, orange: 0, yellow: 0, green: 0, blue: 0 };
    for (let i = 0; i < px.length; i += 4) {
      const [r, g, b] = [px[i] / 255, px[i + 1] / 255, px[i + 2] / 255];
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      if (max - min < 0.4) continue; // grey, white, black
      let h;
      if (max === r) h = (60 * ((g - b) / (max - min)) + 360) % 360;
      else if (max === g) h = 60 * ((b - r) / (max - min)) + 120;
      else h = 60 * ((r - g) / (max - min)) + 240;
      const name = h < 15 || h >= 330 ? 'red' : h < 40 ? 'orange' : h < 75 ? 'yellow' : h < 170 ? 'green' : h < 260 ? 'blue' : null;
      if (name) buckets[name] += 1;
    }
    return Object.keys(buckets).filter((k) => buckets[k] > 150);
  }, png);
}

// The 3D player's state through cubing.js's own model: its puzzle, whether its current pattern
// is cubing.js's solved pattern, whether it is at the end of its timeline, and (with `alg`)
// whether the pattern is the one `alg` makes from solved.
function playerState(page, alg = null) {
  return page.evaluate(async (a) => {
    const player = document.querySelector('#board twisty-player');
    if (!player) return null;
    const model = player.experimentalModel;
    const kpuzzle = await model.kpuzzle.get();
    const pattern = await model.currentPattern.get();
    const timeline = await model.detailedTimelineInfo.get();
    return {
      puzzle: await model.puzzleID.get(),
      solved: pattern.isIdentical(kpuzzle.defaultPattern()),
      // Solved up to the turns of centres in place, which a plain sticker colouring does not
      // show (every orbit's pieces home, every orientation but the CENTERS orbit's solved).
      solvedAsSeen: Object.entries(kpuzzle.defaultPattern().patternData).every(([orbit, home]) => {
        const now = pattern.patternData[orbit];
        return now.pieces.every((p, i) => p === home.pieces[i])
          && (orbit === 'CENTERS' || now.orientation.every((o, i) => o === home.orientation[i]));
      }),
      atEnd: timeline.atEnd,
      playing: (await model.playingInfo.get()).playing,
      matches: a === null ? null : pattern.isIdentical(kpuzzle.defaultPattern().applyAlg(a)),
      moves: (await model.alg.get()).alg.toString(),
    };
  }, alg);
}

async function until(what, check, ms = 20000) {
  const t0 = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - t0 > ms * slowdown()) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Plays the solution in 3D (faster than people watch it) and waits for the end of its timeline.
async function solveIn3d(page) {
  // The first frame is read at the normal tempo (at 10x a short solve could already be over),
  // then the rest plays fast.
  await page.evaluate(() => { document.querySelector('#board twisty-player').tempoScale = 1; });
  await page.click('#solve');
  await waitForSolution(page, 30000 * slowdown());
  const first = await playerState(page);
  assert.equal(first.solved, false, 'the animation starts from the scrambled position');
  await page.evaluate(() => { document.querySelector('#board twisty-player').tempoScale = 10; });
  return until('the end of the solve animation', async () => {
    const s = await playerState(page);
    return s.atEnd && !s.playing ? s : null;
  });
}

test('the 3D cube: drawn, turned by a key, a pasted scramble solved by an animation that ends solved', async () => {
  const page = await open('#play/cube?seed=4');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 4');
  await until('the 3D cube', async () => (await playerState(page))?.puzzle === '3x3x3');
  // Drawn: the screenshot shows at least four of the sticker colours (three faces are visible).
  const colours = await until('a drawn cube', async () => {
    const c = await stickerColours(page);
    return c.length >= 4 ? c : null;
  }, 10000);
  assert.ok(colours.length >= 4, colours.join(' '));
  // A facelet string (the engine's for R U F', through the API) shows as cubing.js's R U F'.
  const applied = await fetch(`${url}api/v1/cube/apply`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ moves: "R U F'" }),
  });
  await page.fill('#facelets', (await applied.json()).facelets);
  await page.click('#facelets-set');
  await until('the typed facelets', async () => (await playerState(page, "R U F'")).matches);
  // A pasted scramble: the engine's position (the link) and the 3D pattern are both scrambled.
  const scramble = "R U R' U' F2 D L' B2 U2 R' F";
  await page.fill('#alg', scramble);
  await page.click('#alg-scramble');
  await until('the pasted scramble', async () => (await playerState(page, scramble)).matches);
  assert.ok(!(await page.getAttribute('#link', 'href')).endsWith(`pos=${'U'.repeat(9)}${'R'.repeat(9)}`));
  // A key turns a face (the engine applies it; the 3D view animates it).
  await page.focus('#board');
  await page.keyboard.press('r');
  await page.waitForFunction(() => document.getElementById('moves').textContent === '1');
  await until('the R turn in 3D', async () => (await playerState(page, `${scramble} R`)).matches);
  // A click on the top face turns it (cubing.js picks the move; the engine applies it too).
  const box = await page.locator('#board twisty-player').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.22);
  await page.waitForFunction(() => document.getElementById('moves').textContent === '2');
  const clicked = await playerState(page);
  assert.match(clicked.moves, /^R U'?$/, clicked.moves);
  // The engine's solution, animated by cubing.js from the position, ends on its solved cube.
  const end = await solveIn3d(page);
  assert.equal(end.solved, true, `after ${end.moves}`);
  await page.waitForFunction(() => !document.getElementById('solved').hidden);
  assert.match(await page.textContent('#solved'), /Solved by the solver in \d+ moves?/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a pyraminx definition file in 3D: moves from its buttons, then solved in 3D', async () => {
  const page = await open('#play/def?example=pyraminx&seed=2');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 2');
  await until('the 3D pyraminx', async () => (await playerState(page))?.puzzle === 'pyraminx');
  assert.equal(await page.inputValue('#puzzle'), 'def?example=pyraminx');
  // Two moves from the file's buttons on top of the engine's random position.
  await page.click('#move-buttons button[data-move="L"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent === '1');
  await page.click('#move-buttons button[data-move="B"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent === '2');
  const end = await solveIn3d(page);
  assert.equal(end.solved, true, `after ${end.moves}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the megaminx definition file in 3D, solved in its phase file's twelve phases", async () => {
  // data/puzzles/megaminx.tws names its faces as cubing.js does and leaves out the fixed
  // centres; the solution, played by cubing.js's megaminx, must end solved there too (the
  // engine's scramble of 30 random moves is played there first).
  const page = await open('#play/def?example=megaminx&seed=3');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 3');
  await until('the 3D megaminx', async () => (await playerState(page))?.puzzle === 'megaminx');
  await page.waitForFunction(() => {
    const o = document.querySelector('#def-phases option[value="file"]');
    return o && !o.disabled && o.textContent === 'in phases (megaminx.phases)';
  });
  await page.selectOption('#def-phases', 'file');
  const end = await solveIn3d(page);
  // The file leaves the centres out (they never move), so the solution may leave cubing.js's
  // centres turned in place: solved as the colours show it.
  assert.equal(end.solvedAsSeen, true, `after ${end.moves}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the 4x4x4 definition file (a fixed corner) in 3D: its inner slices as cubing.js\'s 2U 2R ...', async () => {
  const page = await open('#play/def?example=4x4x4-fixed-corner&seed=3');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 3');
  await until('the 3D 4x4x4', async () => (await playerState(page))?.puzzle === '4x4x4');
  assert.equal(await page.inputValue('#puzzle'), 'def?example=4x4x4-fixed-corner');
  // Too big for a uniform scramble: 30 random moves of the file, shown as cubing.js's moves
  // (fourcube.test.mjs checks that they make the engine's position).
  const scramble = (await page.evaluate(async () => {
    const model = document.querySelector('#board twisty-player').experimentalModel;
    return (await model.setupAlg.get()).alg.toString();
  })).split(' ');
  assert.equal(scramble.length, 30);
  assert.ok(scramble.every((m) => /^2?[URFDLB]['2]?$/.test(m)), scramble.join(' '));
  await page.click('#move-buttons button[data-move="u"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent === '1');
  await page.click('#move-buttons button[data-move="r"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent === '2');
  const alg = [...scramble, '2U', '2R'].join(' ');
  const shown = await until('the two slice moves in 3D', async () => {
    const s = await playerState(page, alg);
    return s.atEnd && !s.playing ? s : null;
  });
  assert.equal(shown.moves, '2U 2R');
  assert.equal(shown.matches, true, `shown: ${shown.moves} after ${scramble.join(' ')}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("cubing.js's own megaminx definition uploaded: drawn in 3D, its pattern the engine's state", async () => {
  // The KPuzzle definition cubing.js itself uses (same pieces, same numbering as the 3D view).
  const { puzzles } = await import(pathToFileURL(path.join(here, '../node_modules/cubing/dist/lib/cubing/puzzles/index.js')));
  const text = JSON.stringify((await puzzles.megaminx.kpuzzle()).definition);
  const page = await open('#play/def');
  await page.locator('#def-file').setInputFiles({ name: 'megaminx.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.getElementById('def-name').textContent === 'megaminx.json');
  await page.fill('#seed', '3');
  await page.click('#scramble');
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 3');
  await until('the 3D megaminx', async () => (await playerState(page))?.puzzle === 'megaminx');
  // The engine's state of the position in the link, piece by piece, is the 3D pattern.
  const pos = new URLSearchParams((await page.getAttribute('#link', 'href')).split('?')[1]).get('pos');
  const response = await fetch(`${url}api/v1/def/apply`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ file: { name: 'megaminx.json', text }, moves: '', state: pos }),
  });
  const engine = (await response.json()).state;
  const pattern = await page.evaluate(async () => {
    const model = document.querySelector('#board twisty-player').experimentalModel;
    return (await model.currentPattern.get()).patternData;
  });
  assert.deepEqual(Object.keys(engine).sort(), Object.keys(pattern).sort());
  let moved = 0;
  for (const orbit of Object.keys(engine)) {
    assert.deepEqual(engine[orbit].pieces, pattern[orbit].pieces, orbit);
    assert.deepEqual(engine[orbit].orientation, pattern[orbit].orientation, orbit);
    moved += engine[orbit].pieces.filter((p, i) => p !== i).length;
  }
  assert.ok(moved > 20, `a scramble moves pieces (${moved})`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// --- Timer, sessions, the selector and bad URLs ---------------------------------------------

test('a timer session: five solves give an ao5, exported as CSV', async () => {
  const page = await open('#play/sliding?size=2x2&seed=1');
  let solves = 0;
  for (let seed = 1; solves < 5; ++seed) {
    if (seed === 5) await page.check('#inspection');
    await page.goto(`${url}#play/sliding?size=2x2&seed=${seed}`);
    await page.waitForFunction((s) => document.getElementById('seed-shown').textContent === `seed ${s}`, seed);
    if (await page.locator('#board .cell.blank').evaluate((c) => c.dataset.cell === '3')
        && (await page.locator('#board .cell').allTextContents()).join(' ') === '1 2 3 ') continue;
    if (await page.isChecked('#inspection')) {
      assert.equal(await page.textContent('#timer-label'), 'Inspection');
      assert.match(await page.textContent('#timer'), /^1[45]$/);
    }
    await page.focus('#board');
    for (let i = 0; i < 8 && !(await page.locator('#solved').isVisible()); ++i) {
      const before = await page.textContent('#moves');
      await page.keyboard.press('h');
      await page.waitForFunction(() => document.getElementById('hint-text').textContent.startsWith('Next:'));
      await page.keyboard.press(await page.getAttribute('#hint-text', 'data-key'));
      await page.waitForFunction((b) => document.getElementById('moves').textContent !== b, before);
    }
    solves += 1;
    await page.waitForFunction((n) => document.getElementById('stat-count').textContent === String(n), solves);
  }
  // The ao5 as the WCA counts it, from the stored times: drop the best and the worst.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('permuzzle-sessions')));
  const times = stored.sessions[stored.current].map((s) => s.ms).sort((a, b) => a - b);
  assert.equal(times.length, 5);
  const ao5 = (times[1] + times[2] + times[3]) / 3;
  assert.equal(await page.textContent('#stat-ao5'), (ao5 / 1000).toFixed(2));
  assert.equal(await page.textContent('#stat-best'), (times[0] / 1000).toFixed(2));
  assert.equal(await page.textContent('#stat-ao12'), '–');
  const csv = decodeURIComponent((await page.getAttribute('#session-export', 'href')).split(',').slice(1).join(','));
  assert.equal(csv.trim().split('\n').length, 6);
  assert.match(csv, /^n,date,puzzle,seed,time_s,penalty,result_s,moves\n1,/);
  // Kept across a reload.
  await page.reload();
  await page.waitForFunction(() => document.getElementById('stat-count').textContent === '5');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the puzzle selector follows the route; bad URLs disable the board with a message in the page\'s words', async () => {
  const page = await open('#play/def');
  await page.waitForFunction(() => document.getElementById('puzzle').value === 'def');
  assert.equal(await page.isVisible('#upload'), true);
  await page.goto(`${url}#play/def?example=skewb`);
  await page.waitForFunction(() => document.getElementById('puzzle').value === 'def?example=skewb');
  // A definition cubing.js does not draw (TopSpin) is drawn flat from its sets: a row per set,
  // a cell per place.
  await page.goto(`${url}#play/def?example=topspin&seed=1`);
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 1');
  assert.equal(await page.locator('#board twisty-player').count(), 0);
  assert.deepEqual(await page.locator('#board .defset-name').allTextContents(), ['DISCS']);
  const cells = (await page.locator('#board .defcell').allTextContents()).map(Number);
  assert.deepEqual(cells.slice().sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
  assert.notDeepEqual(cells, Array.from({ length: 20 }, (_, i) => i + 1));
  // A board size the engine refuses: its message names the page's field, the board is disabled.
  await page.goto(`${url}#play/sliding?size=99x99`);
  await page.waitForFunction(() => document.getElementById('play-error').textContent !== '');
  const message = await page.textContent('#play-error');
  assert.match(message, /Size/);
  assert.doesNotMatch(message, /--/);
  assert.equal(await page.locator('#board.disabled').count(), 1);
  for (const id of ['#undo', '#redo', '#solve', '#hint', '#reset']) assert.equal(await page.isDisabled(id), true, id);
  // An unknown puzzle and a bad seed.
  await page.goto(`${url}#play/nosuch`);
  await page.waitForFunction(() => document.getElementById('play-error').textContent.includes("no puzzle called 'nosuch'"));
  await page.goto(`${url}#play/sliding?size=3x3&seed=abc`);
  await page.waitForFunction(() => document.getElementById('play-error').textContent.includes("seed must be a whole number"));
  assert.equal(await page.locator('#board.disabled').count(), 1);
  // A good URL brings the board back.
  await page.goto(`${url}#play/sliding?size=3x3&seed=2`);
  await page.waitForFunction(() => document.getElementById('seed-shown').textContent === 'seed 2');
  assert.equal(await page.locator('#board.disabled').count(), 0);
  assert.equal(await page.isDisabled('#solve'), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});
