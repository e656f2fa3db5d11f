// One adapter per puzzle: how a position looks, how moves change it (locally when cheap, else
// through the engine's `apply`), and which engine commands scramble and solve it.
//
// Adapter: { label, options: [{name, label, value}], help,
//   solved(opts) -> state, scramble(opts, seed) -> state (async),
//   encode(state) -> text, decode(opts, text) -> state (async; throws on bad text),
//   render(board, state, ui) (ui.move(m) plays a move), key(event, state, ui) -> move | null,
//   apply(state, move) -> state | null (async), isSolved(state) -> bool,
//   solve(state) -> {moves, optimal, length, note} (async), describeMove(move) -> {text, key} }
import { call } from './api.js';
import { rng } from './rng.js';
import { invertMoves, splitAlg } from './view3d.js';

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

function parseSize(text, what = 'size') {
  const m = /^\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(text || '');
  if (!m) throw new Error(`${what} must look like 3x3, not '${text}'`);
  return [Number(m[1]), Number(m[2])];
}

function movesList(result) {
  const m = result.moves;
  if (Array.isArray(m)) return m.map(String);
  if (typeof m === 'string') return m.trim() ? m.trim().split(/\s+/) : [];
  return [];
}

// Pointer drags on a grid: calls onStep(dRow, dCol, row, col) once per cell dragged, along the
// first axis the pointer moved on. The drag's state lives on the board element, so that it
// survives the re-render after each step.
function dragGrid(board, cellSize, onStep) {
  board.onpointerdown = (e) => {
    const cell = e.target.closest('[data-cell]');
    if (!cell) return;
    board.setPointerCapture(e.pointerId);
    board.drag = { x: e.clientX, y: e.clientY, row: Number(cell.dataset.row),
      col: Number(cell.dataset.col), axis: null };
  };
  board.onpointermove = (e) => {
    const start = board.drag;
    if (!start) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    if (!start.axis && Math.max(Math.abs(dx), Math.abs(dy)) > cellSize / 2) {
      start.axis = Math.abs(dx) > Math.abs(dy) ? 'x' : 'y';
    }
    if (start.axis === 'x' && Math.abs(dx) > cellSize / 2) {
      const s = Math.sign(dx);
      start.x += s * cellSize;
      onStep(0, s, start.row, start.col);
      start.col += s;
    } else if (start.axis === 'y' && Math.abs(dy) > cellSize / 2) {
      const s = Math.sign(dy);
      start.y += s * cellSize;
      onStep(s, 0, start.row, start.col);
      start.row += s;
    }
  };
  board.onpointerup = board.onpointercancel = () => { board.drag = null; };
}

// --- Sliding puzzles (r x c, blank = 0, goal 1..n-1 then the blank) -------------------------
// Moves are the blank's direction (U D L R), as the engine's "directions".
const SLIDE = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
const SLIDE_KEY = { R: 'ArrowLeft', L: 'ArrowRight', D: 'ArrowUp', U: 'ArrowDown' };
const KEY_SLIDE = Object.fromEntries(Object.entries(SLIDE_KEY).map(([d, k]) => [k, d]));
const ARROW = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓' };

export const sliding = {
  label: 'Sliding puzzle',
  options: [{ name: 'size', label: 'Size', value: '3x3' }],
  help: 'Click a tile next to the gap, or use the arrow keys (the tile moves in the arrow\'s direction).',
  solved(opts) {
    const [r, c] = parseSize(opts.size);
    const tiles = Array.from({ length: r * c }, (_, i) => (i + 1) % (r * c));
    return { r, c, tiles };
  },
  async scramble(opts, seed) {
    const [r, c] = parseSize(opts.size);
    const out = await call('sliding', 'random', { size: `${r}x${c}`, seed });
    return { r, c, tiles: out.position };
  },
  encode: (s) => s.tiles.join('.'),
  async decode(opts, text) {
    const [r, c] = parseSize(opts.size);
    const tiles = text.split('.').map(Number);
    const out = await call('sliding', 'check', { size: `${r}x${c}`, position: [tiles.join(' ')] });
    if (out.solvable === false) throw new Error(`this position cannot be solved: ${out.reason || ''}`);
    return { r, c, tiles };
  },
  render(board, s, ui) {
    board.replaceChildren();
    const grid = el('div', 'grid');
    grid.style.gridTemplateColumns = `repeat(${s.c}, 56px)`;
    const blank = s.tiles.indexOf(0);
    s.tiles.forEach((t, i) => {
      const cell = el('div', t ? 'cell clickable' : 'cell blank', t ? String(t) : '');
      cell.dataset.cell = i;
      cell.onclick = () => {
        const dr = Math.floor(i / s.c) - Math.floor(blank / s.c);
        const dc = (i % s.c) - (blank % s.c);
        const dir = Object.keys(SLIDE).find((d) => SLIDE[d][0] === dr && SLIDE[d][1] === dc);
        if (dir) ui.move(dir);
      };
      grid.append(cell);
    });
    board.append(grid);
  },
  key: (e) => KEY_SLIDE[e.key] || null,
  apply(s, dir) {
    const b = s.tiles.indexOf(0);
    const [dr, dc] = SLIDE[dir] || [];
    if (dr === undefined) return null;
    const r = Math.floor(b / s.c) + dr;
    const c = (b % s.c) + dc;
    if (r < 0 || r >= s.r || c < 0 || c >= s.c) return null;
    const tiles = s.tiles.slice();
    tiles[b] = tiles[r * s.c + c];
    tiles[r * s.c + c] = 0;
    return { ...s, tiles };
  },
  isSolved: (s) => s.tiles.every((t, i) => t === (i + 1) % s.tiles.length),
  async solve(s, run = call) {
    const out = await run('sliding', 'solve', { size: `${s.r}x${s.c}`, position: [s.tiles.join(' ')] });
    return { moves: out.directions, optimal: out.optimal, length: out.length };
  },
  describeMove(dir, s) {
    const b = s.tiles.indexOf(0);
    const t = s.tiles[b + SLIDE[dir][0] * s.c + SLIDE[dir][1]];
    const key = SLIDE_KEY[dir];
    return { text: `slide tile ${t} ${ARROW[key]}`, key };
  },
};

// --- Loopover (r x c torus) ------------------------------------------------------------------
// Moves: row letter (A = top) shifts the row right, '-A' left; column number (1 = left) shifts
// the column down, '-1' up: the engine's notation.
const rowName = (r) => String.fromCharCode(65 + r);

function loopoverApply(s, m) {
  const neg = m.startsWith('-');
  const name = neg ? m.slice(1) : m;
  const tiles = s.tiles.slice();
  if (/^[A-Z]$/.test(name)) {
    const r = name.charCodeAt(0) - 65;
    if (r >= s.r) return null;
    for (let c = 0; c < s.c; ++c) {
      const from = neg ? (c + 1) % s.c : (c - 1 + s.c) % s.c;
      tiles[r * s.c + c] = s.tiles[r * s.c + from];
    }
  } else if (/^\d+$/.test(name)) {
    const c = Number(name) - 1;
    if (c < 0 || c >= s.c) return null;
    for (let r = 0; r < s.r; ++r) {
      const from = neg ? (r + 1) % s.r : (r - 1 + s.r) % s.r;
      tiles[r * s.c + c] = s.tiles[from * s.c + c];
    }
  } else {
    return null;
  }
  return { ...s, tiles };
}

// loopover.xyz's colouring: a tile's colour blends four corner colours by its home row and
// column, so rows and columns read as smooth gradients at any size.
const CORNERS = [[230, 60, 60], [235, 200, 50], [50, 110, 225], [50, 185, 95]]; // TL TR BL BR
export function loopoverColour(home, rows, cols) {
  const y = rows > 1 ? Math.floor(home / cols) / (rows - 1) : 0;
  const x = cols > 1 ? (home % cols) / (cols - 1) : 0;
  const rgb = [0, 1, 2].map((k) => Math.round((1 - y) * ((1 - x) * CORNERS[0][k] + x * CORNERS[1][k])
    + y * ((1 - x) * CORNERS[2][k] + x * CORNERS[3][k])));
  const luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
  return [`rgb(${rgb.join(' ')})`, luma > 150 ? '#222' : '#fff'];
}

export const loopover = {
  label: 'Loopover',
  options: [{ name: 'size', label: 'Size', value: '4x4' }],
  help: 'Drag a row sideways or a column up or down. Keys: W A S D move the cursor, the arrow keys shift its row or column.',
  cursor: 0,
  solved(opts) {
    const [r, c] = parseSize(opts.size);
    return { r, c, tiles: Array.from({ length: r * c }, (_, i) => i + 1) };
  },
  async scramble(opts, seed) {
    const [r, c] = parseSize(opts.size);
    const out = await call('loopover', 'random', { size: `${r}x${c}`, seed });
    return { r, c, tiles: out.positions[0].split(/\s+/).map(Number) };
  },
  encode: (s) => s.tiles.join('.'),
  async decode(opts, text) {
    const [r, c] = parseSize(opts.size);
    const tiles = text.split('.').map(Number);
    const out = await call('loopover', 'check', { size: `${r}x${c}`, position: tiles.join(' ') });
    if (out.valid === false) throw new Error(`not a Loopover position: ${out.reason || tiles.join(' ')}`);
    if (out.solvable === false) throw new Error(`this position cannot be solved: ${out.reason || ''}`);
    return { r, c, tiles };
  },
  render(board, s, ui) {
    board.replaceChildren();
    const grid = el('div', 'grid');
    grid.style.gridTemplateColumns = `repeat(${s.c}, 56px)`;
    s.tiles.forEach((t, i) => {
      const cell = el('div', 'cell', String(t));
      const [bg, fg] = loopoverColour(t - 1, s.r, s.c);
      cell.style.background = bg;
      cell.style.color = fg;
      if (i === this.cursor) cell.classList.add('cursor');
      cell.dataset.cell = i;
      cell.dataset.row = Math.floor(i / s.c);
      cell.dataset.col = i % s.c;
      grid.append(cell);
    });
    board.append(grid);
    dragGrid(board, 59, (dr, dc, row, col) => {
      const r = ((row % s.r) + s.r) % s.r;
      const c = ((col % s.c) + s.c) % s.c;
      if (dc) ui.move((dc < 0 ? '-' : '') + rowName(r));
      if (dr) ui.move((dr < 0 ? '-' : '') + String(c + 1));
    });
  },
  key(e, s) {
    const r = Math.floor(this.cursor / s.c);
    const c = this.cursor % s.c;
    const moveCursor = (nr, nc) => {
      this.cursor = ((nr + s.r) % s.r) * s.c + ((nc + s.c) % s.c);
      return 'render';
    };
    switch (e.key.toLowerCase()) {
      case 'w': return moveCursor(r - 1, c);
      case 's': return moveCursor(r + 1, c);
      case 'a': return moveCursor(r, c - 1);
      case 'd': return moveCursor(r, c + 1);
      default: break;
    }
    // The arrows shift the cursor's row or column, and the cursor rides along.
    switch (e.key) {
      case 'ArrowRight': moveCursor(r, c + 1); return rowName(r);
      case 'ArrowLeft': moveCursor(r, c - 1); return `-${rowName(r)}`;
      case 'ArrowDown': moveCursor(r + 1, c); return String(c + 1);
      case 'ArrowUp': moveCursor(r - 1, c); return `-${c + 1}`;
      default: return null;
    }
  },
  apply: loopoverApply,
  isSolved: (s) => s.tiles.every((t, i) => t === i + 1),
  async solve(s, run = call) {
    const out = await run('loopover', 'solve', { size: `${s.r}x${s.c}`, position: s.tiles.join(' ') });
    return { moves: movesList(out), optimal: out.optimal, length: out.length };
  },
  describeMove(m) {
    const neg = m.startsWith('-');
    const name = neg ? m.slice(1) : m;
    const text = /^[A-Z]$/.test(name) ? `row ${name} ${neg ? 'left' : 'right'}`
      : `column ${name} ${neg ? 'up' : 'down'}`;
    return { text: `${m} (${text})` };
  },
};

// --- Triangular Loopover (f rows, f^2 cells) -------------------------------------------------
export const triloop = {
  label: 'Triangular Loopover',
  options: [{ name: 'rows', label: 'Rows', value: '4' }],
  help: 'Buttons shift one line of cells: D lines parallel to the bottom side, L to the left side, R to the right side (1 = nearest that side; − inverts).',
  rows: (opts) => {
    const f = Number(opts.rows);
    if (!Number.isInteger(f) || f < 2 || f > 8) throw new Error(`rows must be 2..8, not '${opts.rows}'`);
    return f;
  },
  solved(opts) {
    const f = this.rows(opts);
    return { f, pos: Array.from({ length: f * f }, (_, i) => i + 1).join(' ') };
  },
  async scramble(opts, seed) {
    const f = this.rows(opts);
    const out = await call('triloop', 'random', { rows: f, seed });
    return { f, pos: out.position };
  },
  encode: (s) => s.pos.split(' ').join('.'),
  async decode(opts, text) {
    const f = this.rows(opts);
    const pos = text.split('.').join(' ');
    await call('triloop', 'apply', { rows: f, MOVES: ' ', position: pos });
    return { f, pos };
  },
  buttons(opts) {
    const f = this.rows(opts);
    const out = [];
    for (const side of ['D', 'L', 'R']) {
      for (let i = 1; i <= f; ++i) out.push(`${side}${i}`, `-${side}${i}`);
    }
    return out;
  },
  render(board, s) {
    board.replaceChildren();
    const tri = el('div', 'tri');
    const cells = s.pos.split(/\s+/);
    tri.style.width = `${s.f * 52}px`;
    tri.style.height = `${s.f * 48}px`;
    let k = 0;
    for (let i = 0; i < s.f; ++i) {
      for (let j = 0; j < 2 * i + 1; ++j, ++k) {
        const t = el('div', `t ${j % 2 === 0 ? 'up' : 'down'}`, cells[k]);
        t.style.left = `${(s.f - 1 - i) * 26 + j * 26}px`;
        t.style.top = `${i * 48}px`;
        t.dataset.cell = k;
        tri.append(t);
      }
    }
    board.append(tri);
  },
  key: () => null,
  async apply(s, m) {
    const out = await call('triloop', 'apply', { rows: s.f, MOVES: ` ${m}`, position: s.pos });
    return { ...s, pos: out.position };
  },
  isSolved: (s) => s.pos.split(/\s+/).every((t, i) => Number(t) === i + 1),
  async solve(s, run = call) {
    const out = await run('triloop', 'solve', { rows: s.f, POS: s.pos });
    return { moves: movesList(out), optimal: out.optimal, length: out.length, note: out.method };
  },
  describeMove: (m) => ({ text: m }),
};

// --- Tower of Hanoi (n disks, k pegs; disk 1 is the smallest) --------------------------------
const pegName = (i) => String.fromCharCode(65 + i);

export const hanoi = {
  label: 'Tower of Hanoi',
  options: [{ name: 'disks', label: 'Disks', value: '5' }, { name: 'pegs', label: 'Pegs', value: '3' }],
  help: 'Click a peg to pick up its top disk, then the peg to put it on; or press the peg numbers 1, 2, 3, …',
  picked: null,
  dims(opts) {
    const n = Number(opts.disks);
    const k = Number(opts.pegs);
    if (!Number.isInteger(n) || n < 1 || n > 20) throw new Error(`disks must be 1..20, not '${opts.disks}'`);
    if (!Number.isInteger(k) || k < 3 || k > 8) throw new Error(`pegs must be 3..8, not '${opts.pegs}'`);
    return [n, k];
  },
  solved(opts) {
    const [n, k] = this.dims(opts);
    const towers = Array.from({ length: k }, () => []);
    towers[k - 1] = Array.from({ length: n }, (_, i) => i + 1);
    return { n, k, towers };
  },
  // Every placement of the disks on the pegs is a position: a uniform one is a uniform peg per
  // disk (seeded on the page, the engine has no Hanoi scrambler).
  async scramble(opts, seed) {
    const [n, k] = this.dims(opts);
    const random = rng(seed);
    const towers = Array.from({ length: k }, () => []);
    for (let d = 1; d <= n; ++d) towers[random(k)].push(d);
    return { n, k, towers };
  },
  text: (s) => `[${s.towers.map((t) => `[${t.join(', ')}]`).join(', ')}]`,
  encode(s) { return s.towers.map((t) => t.join('.')).join('_'); },
  async decode(opts, text) {
    const [n, k] = this.dims(opts);
    const towers = text.split('_').map((t) => (t ? t.split('.').map(Number) : []));
    const seen = towers.flat().sort((a, b) => a - b);
    if (towers.length !== k || seen.length !== n || seen.some((d, i) => d !== i + 1)
        || towers.some((t) => t.some((d, i) => i > 0 && t[i - 1] > d))) {
      throw new Error('this is not a Tower of Hanoi position for these disks and pegs');
    }
    return { n, k, towers };
  },
  render(board, s, ui) {
    board.replaceChildren();
    const pegs = el('div', 'pegs');
    s.towers.forEach((t, p) => {
      const peg = el('div', this.picked === p ? 'peg selected' : 'peg');
      peg.dataset.peg = pegName(p);
      for (let i = t.length - 1; i >= 0; --i) {
        const d = el('div', 'disk', String(t[i]));
        d.style.width = `${20 + (130 * t[i]) / s.n}px`;
        d.style.background = `hsl(${(t[i] * 47) % 360} 55% 50%)`;
        peg.append(d);
      }
      peg.onclick = () => this.pick(p, s, ui);
      pegs.append(peg);
    });
    board.append(pegs);
  },
  pick(p, s, ui) {
    if (this.picked === null) {
      if (s.towers[p].length) this.picked = p;
      ui.render();
      return;
    }
    const from = this.picked;
    this.picked = null;
    if (from === p) ui.render();
    else ui.move(pegName(from) + pegName(p));
  },
  key(e, s, ui) {
    const p = Number(e.key) - 1;
    if (Number.isInteger(p) && p >= 0 && p < s.k) this.pick(p, s, ui);
    return null;
  },
  apply(s, m) {
    const from = m.charCodeAt(0) - 65;
    const to = m.charCodeAt(1) - 65;
    const src = s.towers[from];
    const dst = s.towers[to];
    if (!src || !dst || !src.length || (dst.length && dst[0] < src[0])) return null;
    const towers = s.towers.map((t) => t.slice());
    towers[to].unshift(towers[from].shift());
    return { ...s, towers };
  },
  isSolved: (s) => s.towers[s.k - 1].length === s.n,
  async solve(s, run = call) {
    const out = await run('hanoi', 'solve', { disks: s.n, pegs: s.k, from: this.text(s), all: true });
    return { moves: movesList(out), optimal: out.optimal, length: out.length, note: out.proof };
  },
  describeMove: (m) => ({ text: `${m[0]} → ${m[1]}`, key: `${m.charCodeAt(0) - 64} ${m.charCodeAt(1) - 64}` }),
};

// --- Rubik's cube (facelets in URFDLB order, 9 per face, Singmaster moves) -------------------
// Drawn in 3D by cubing.js (view3d.js): a position also carries `alg`, moves from solved that
// reach it (kept as moves are played; for a scramble or typed facelets, the inverse of the
// engine's solution). The flat net is the view when the 3D code cannot load.
const FACES = 'URFDLB';
const COLOR = { U: '#fff', R: '#c41e3a', F: '#009e60', D: '#ffd500', L: '#ff5800', B: '#0051ba' };
// Net: where each face's 3x3 block sits on a 12x9 grid of stickers (column, row).
const NET = { U: [3, 0], L: [0, 3], F: [3, 3], R: [6, 3], B: [9, 3], D: [3, 6] };
const SOLVED_CUBE = [...FACES].map((f) => f.repeat(9)).join('');
// Keys: a face, slice or rotation letter turns it clockwise, with Shift counter-clockwise.
const CUBE_KEYS = { u: 'U', r: 'R', f: 'F', d: 'D', l: 'L', b: 'B', m: 'M', e: 'E', s: 'S', x: 'x', y: 'y', z: 'z' };

async function cubeAlg(facelets) {
  if (facelets === SOLVED_CUBE) return [];
  const out = await call('cube', 'solve', { facelets });
  return invertMoves(movesList(out));
}

export const cube = {
  label: "Rubik's cube",
  options: [],
  puzzle3d: '3x3x3',
  help: 'Click a face of the cube to turn it (right-click: the other way; Shift+click: the slice behind; Ctrl+click: the whole cube), or press U R F D L B (faces), M E S (slices), X Y Z (rotations), with Shift counter-clockwise. Drag to look around; the bar under the cube scrubs through the moves.',
  help2d: 'Buttons, or the keys U R F D L B (faces), M E S (slices), X Y Z (rotations), with Shift counter-clockwise.',
  solved: () => ({ facelets: SOLVED_CUBE, alg: [] }),
  async scramble(opts, seed) {
    const out = await call('cube', 'random', { seed });
    return { facelets: out.facelets, alg: await cubeAlg(out.facelets) };
  },
  encode: (s) => s.facelets,
  async decode(opts, text) {
    const facelets = String(text).replace(/\s+/g, '').toUpperCase();
    const out = await call('cube', 'check', { facelets });
    if (out.solvable === false) {
      throw new Error(`this cube cannot be solved: ${(out.failures || []).join('; ')}`);
    }
    return { facelets, alg: await cubeAlg(facelets) };
  },
  buttons: () => [...'URFDLB', ...'MES'].flatMap((f) => [f, `${f}'`, `${f}2`]).concat(['x', "x'", 'y', "y'", 'z', "z'"]),
  render(board, s) {
    board.replaceChildren();
    const net = el('div', 'net');
    [...FACES].forEach((f, fi) => {
      for (let i = 0; i < 9; ++i) {
        const sticker = el('div', 'sticker');
        sticker.style.gridColumn = String(NET[f][0] + (i % 3) + 1);
        sticker.style.gridRow = String(NET[f][1] + Math.floor(i / 3) + 1);
        sticker.style.background = COLOR[s.facelets[fi * 9 + i]];
        sticker.dataset.face = f;
        net.append(sticker);
      }
    });
    board.append(net);
  },
  key(e) {
    const m = CUBE_KEYS[e.key.toLowerCase()];
    if (!m || e.ctrlKey || e.metaKey || e.altKey) return null;
    return e.shiftKey ? `${m}'` : m;
  },
  // m: one move or several (a pasted alg), in the engine's notation (Singmaster, M E S, x y z,
  // wide moves), which is cubing.js's too.
  async apply(s, m) {
    const out = await call('cube', 'apply', { moves: m, start: s.facelets });
    return { facelets: out.facelets, alg: s.alg ? s.alg.concat(splitAlg(m)) : null };
  },
  isSolved: (s) => [...FACES].every((f, i) => new Set(s.facelets.slice(i * 9, i * 9 + 9)).size === 1),
  async solve(s, run = call) {
    const out = await run('cube', 'solve', { facelets: s.facelets });
    return { moves: movesList(out), optimal: out.optimal === true, length: out.length, note: out.note };
  },
  describeMove: (m) => ({ text: m, key: m.endsWith("'") ? `Shift+${m[0]}` : m.endsWith('2') ? `${m[0]} ${m[0]}` : m }),
};

export const PUZZLES = { sliding, loopover, triloop, hanoi, cube };
