// Loopover's tile colours (web/js/puzzles.js) as on loopover.xyz: along a row or a column of the
// solved board the colour changes a little at each step and always the same way, so a 9x9 board
// reads as a gradient; every tile of it has a colour of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loopoverColour } from '../js/puzzles.js';

const rgb = (css) => css.match(/\d+/g).map(Number);
const distance = (a, b) => Math.hypot(...a.map((x, k) => x - b[k]));

test('a 9x9 Loopover is a smooth gradient by row and by column', () => {
  const n = 9;
  const colour = (r, c) => rgb(loopoverColour(r * n + c, n, n)[0]);
  const all = new Set();
  for (let r = 0; r < n; ++r) {
    for (let c = 0; c < n; ++c) {
      all.add(colour(r, c).join(','));
      // Neighbours are close (a step of the gradient), far ends far apart.
      if (c + 1 < n) assert.ok(distance(colour(r, c), colour(r, c + 1)) < 40, `row ${r} col ${c}`);
      if (r + 1 < n) assert.ok(distance(colour(r, c), colour(r + 1, c)) < 40, `row ${r} col ${c}`);
    }
    // Monotone along the row: each channel only rises or only falls from one end to the other.
    for (let k = 0; k < 3; ++k) {
      const channel = Array.from({ length: n }, (_, c) => colour(r, c)[k]);
      const up = channel.every((x, i) => i === 0 || x >= channel[i - 1]);
      const down = channel.every((x, i) => i === 0 || x <= channel[i - 1]);
      assert.ok(up || down, `row ${r} channel ${k}: ${channel}`);
    }
  }
  assert.equal(all.size, n * n);
  assert.ok(distance(colour(0, 0), colour(n - 1, n - 1)) > 150);
  assert.ok(distance(colour(0, n - 1), colour(n - 1, 0)) > 150);
});
