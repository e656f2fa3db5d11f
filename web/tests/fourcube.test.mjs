// The project's 4x4x4-fixed-corner.tws shown by cubing.js's 4x4x4 (web/js/defpuzzle.js): its
// move tokens, translated for cubing.js (u -> 2U, ...), turn cubing.js's cube as the engine turns
// the file's. Checked against the engine (`permuzzle def apply`, PERMUZZLE_CLI) and cubing.js's
// own 4x4x4 KPuzzle: a correspondence of places is derived once from the single moves (it
// exists only when every move turns the same layer the same way), then random sequences must
// give the same position through it. The file's centres are identical in fours, so they are
// compared by colour (the face they belong to).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { recognise } from '../js/defpuzzle.js';
import { rng } from '../js/rng.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = process.env.PERMUZZLE_CLI || path.join(here, '../../build/release/permuzzle');
const FILE = path.join(here, '../../data/puzzles/4x4x4-fixed-corner.tws');
const { puzzles } = await import(pathToFileURL(path.join(here, '../node_modules/cubing/dist/lib/cubing/puzzles/index.js')));
const kpuzzle = await puzzles['4x4x4'].kpuzzle();

const engine = (...args) => JSON.parse(execFileSync(cli, ['def', ...args, '--json'], { encoding: 'utf8' }));
const stateAfter = (file, moves) => engine('apply', file, '--moves', moves.join(' ')).state;
const cubingAfter = (moves) => kpuzzle.defaultPattern().applyAlg(moves.join(' ')).patternData;

// The file with its 24 centres told apart (labels 1..24): the engine then shows where each
// centre goes, which the single moves need (the real file's centres are compared by colour).
function distinctCentres() {
  const text = readFileSync(FILE, 'utf8');
  const solved = /(Solved\nCORNERS\n[^]*?\nCENTERS\n)([^\n]*)/;
  assert.match(text, solved);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'fourcube-')), 'distinct.tws');
  writeFileSync(file, text.replace(solved, (all, head) => head + Array.from({ length: 24 }, (_, i) => i + 1).join(' ')));
  return file;
}

// The place p of the file is place phi[p] of cubing.js's cube when, for every move, the piece
// the engine moves to p is the one cubing.js moves to phi[p]: phi[engine[m][p]] =
// cubing[m][phi[p]]. Starting from each choice for place 0, the moves determine the rest (every
// set is one orbit of the moves); returns every consistent one-to-one phi.
function correspondences(engineMoves, cubingMoves, size) {
  const found = [];
  for (let start = 0; start < size; ++start) {
    const phi = new Array(engineMoves[0].length).fill(-1);
    phi[0] = start;
    const queue = [0];
    let ok = true;
    while (ok && queue.length) {
      const p = queue.shift();
      engineMoves.forEach((e, m) => {
        const q = cubingMoves[m][phi[p]];
        if (phi[e[p]] === -1) {
          phi[e[p]] = q;
          queue.push(e[p]);
        } else if (phi[e[p]] !== q) ok = false;
      });
    }
    if (ok && !phi.includes(-1) && new Set(phi).size === phi.length) found.push(phi);
  }
  return found;
}

const info = engine('info', FILE);
const view = recognise(info);
const moveNames = info.moves.map((m) => (typeof m === 'string' ? m : m.name));

test('4x4x4-fixed-corner.tws is recognised as cubing.js\'s 4x4x4 with its slices as 2U 2D ...', () => {
  assert.equal(view && view.puzzle, '4x4x4');
  assert.deepEqual(view.translate(moveNames), ['U', 'R', 'F', '2U', '2D', '2R', '2L', '2F', '2B']);
  assert.deepEqual(view.translate(["u'", 'r2', "U2'", 'b']), ["2U'", '2R2', "U2'", '2B']);
});

test('the engine and cubing.js turn the same pieces the same way (random sequences)', () => {
  // The correspondence, from the single moves.
  const distinct = distinctCentres();
  const single = moveNames.map((m) => ({ engine: stateAfter(distinct, [m]), cubing: kpuzzle.moveToTransformation(view.translate([m])[0]).transformationData }));
  const phi = {};
  for (const [set, size] of [['CORNERS', 8], ['EDGES', 24], ['CENTERS', 24]]) {
    const found = correspondences(single.map((s) => s.engine[set].pieces), single.map((s) => s.cubing[set].permutation), size);
    assert.equal(found.length, 1, `${set}: ${found.length} correspondences of places`);
    [phi[set]] = found;
  }
  // Corner twists: the two may count them from another reference sticker of a place, or the
  // other way round (a convention, not a different cube: the places above already fix which
  // way each layer turns). cubing.js's twist of the piece from place x at place p is
  // sign * (engine's) + offset[p] - offset[x] for one sign and offsets (offset[0] = 0), found
  // from the single moves (today: sign 2, i.e. -1, all offsets 0).
  const twists = [];
  for (const sign of [1, 2]) {
    for (let code = 0; code < 3 ** 6; ++code) {
      const offset = [0, ...Array.from({ length: 6 }, (_, k) => Math.floor(code / 3 ** k) % 3)];
      const fits = single.every((s) => phi.CORNERS.every((q, p) => s.cubing.CORNERS.orientationDelta[q]
        === (sign * s.engine.CORNERS.orientation[p] + offset[p] - offset[s.engine.CORNERS.pieces[p]] + 6) % 3));
      if (fits) twists.push({ sign, offset });
    }
  }
  assert.equal(twists.length, 1, `${twists.length} ways to count the corner twists alike`);
  const [{ sign, offset }] = twists;
  // The real file's centre labels are cubing.js's faces (one label a face).
  const solvedLabels = engine('apply', FILE, '--moves', '').state.CENTERS.pieces;
  const faceOf = new Map();
  const cubingSolved = kpuzzle.defaultPattern().patternData.CENTERS.pieces;
  solvedLabels.forEach((label, p) => {
    const face = cubingSolved[phi.CENTERS[p]];
    assert.equal(faceOf.get(label) ?? face, face, `centre label ${label}`);
    faceOf.set(label, face);
  });
  assert.equal(new Set(faceOf.values()).size, 6);

  const random = rng(26);
  for (let run = 0; run < 12; ++run) {
    const moves = Array.from({ length: 30 }, () => moveNames[random(moveNames.length)] + ['', "'", '2'][random(3)]);
    const e = stateAfter(FILE, moves);
    const c = cubingAfter(view.translate(moves));
    const at = `after ${moves.join(' ')}`;
    phi.CORNERS.forEach((q, p) => {
      assert.equal(c.CORNERS.pieces[q], phi.CORNERS[e.CORNERS.pieces[p]], `${at}: corner ${p}`);
      const piece = e.CORNERS.pieces[p];
      assert.equal(c.CORNERS.orientation[q], (sign * e.CORNERS.orientation[p] + offset[p] - offset[piece] + 6) % 3, `${at}: corner ${p} twist`);
    });
    const unmoved = [0, 1, 2, 3, 4, 5, 6, 7].find((q) => !phi.CORNERS.includes(q)); // the fixed DBL
    assert.deepEqual([c.CORNERS.pieces[unmoved], c.CORNERS.orientation[unmoved]], [unmoved, 0], `${at}: the fixed corner`);
    phi.EDGES.forEach((q, p) => assert.equal(c.EDGES.pieces[q], phi.EDGES[e.EDGES.pieces[p]], `${at}: edge ${p}`));
    phi.CENTERS.forEach((q, p) => assert.equal(c.CENTERS.pieces[q], faceOf.get(e.CENTERS.pieces[p]), `${at}: centre ${p}`));
  }
});
