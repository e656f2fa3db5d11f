// Any puzzle from a definition file (ksolve/twsearch text or KPuzzle JSON: uploaded, or one of
// the project's examples in data/puzzles/, served as /examples/NAME.tws), through the engine's
// generic `def` commands (info, apply, random, solve), found in GET /api/v1/commands: the page
// offers it only when they exist.
//
// A position is kept as the engine prints it: a scramble-file entry ("Scramble NAME ... End"),
// which `def apply --state` and `def solve --state` read back, with the state as JSON for the
// 2D picture. The solved pattern is the state null (no --state).
//
// A file cubing.js can draw is shown in 3D: the project's 3x3x3, 2x2x2, 4x4x4 (fixed corner),
// pyraminx (with or without tips) and skewb files, recognised by their sets and move names, and
// cubing.js's own KPuzzle definitions (megaminx, NxNxN, ...), recognised by name and checked
// against cubing.js's.
// A position then also carries `alg`, moves in cubing.js's notation that reach it from solved
// (see view3d.js).
import { call } from './api.js';
import { invertMoves, splitAlg } from './view3d.js';
import { rng } from './rng.js';

// The project's definition files the page offers (data/puzzles/, embedded as /examples/).
export const EXAMPLES = {
  pyraminx: 'Pyraminx (no tips)',
  'pyraminx-tips': 'Pyraminx',
  '2x2x2': '2x2x2 cube',
  skewb: 'Skewb',
  '3x3x3': '3x3x3 cube (definition file)',
  '4x4x4-fixed-corner': '4x4x4 cube (DBL corner fixed)',
  megaminx: 'Megaminx',
  topspin: 'TopSpin',
  m24: 'M24 puzzle',
};

// Examples with a phase file of their own (data/puzzles/NAME.phases, served as
// /examples/NAME.phases): the page can solve them in those phases (def solve --phases FILE).
export const EXAMPLE_PHASES = {
  '3x3x3': '3x3x3-kociemba',
  '4x4x4-fixed-corner': '4x4x4-fixed-corner',
  megaminx: 'megaminx',
};

// The file's parameter of a def command: its positional input-file parameter.
function fileParam(command) {
  const params = command ? command.params : [];
  const p = params.find((x) => x.type === 'input-file' && x.positional)
    || params.find((x) => x.type === 'input-file');
  return p ? p.name : 'file';
}

const FACE_MOVE = /^[URFDLB]$/;
// A token of the file (u, u', u2, U ...) in cubing.js's notation: an inner slice is 2U, 2U', 2U2.
const innerSlices = (tokens) => tokens.map((m) => m.replace(/^([udrlfb])(?![a-z])/, (x) => `2${x.toUpperCase()}`));
// The project's definition files cubing.js draws (data/puzzles/): their sets
// ("NAME:pieces/orientations", sorted), their base move names, and cubing.js's puzzle id. Their
// move names and conventions (which way a move turns) are cubing.js's: an engine solution
// applied after the scramble ends on cubing.js's solved pattern (checked for each of them with
// cubing.js's KPuzzles; web/tests/ checks the pyraminx in the browser), except the 4x4x4's
// inner slices, whose tokens `translate` rewrites (web/tests/fourcube.test.mjs checks it).
const RECOGNISED = [
  { sets: 'CORNERS:8/3 EDGES:12/2', moves: FACE_MOVE, puzzle: '3x3x3' },
  { sets: 'CORNERS:8/3', moves: FACE_MOVE, puzzle: '2x2x2' },
  { sets: 'CORNERS:7/3', moves: FACE_MOVE, puzzle: '2x2x2' },
  { sets: 'CENTERS:4/3 EDGES:6/2 TIPS:4/3', moves: /^[ULRBulrb]$/, puzzle: 'pyraminx' },
  // Without tips: cubing.js's U also turns the tip, always as far as the axial centre below
  // it, so the tips are solved whenever the file's pieces are.
  { sets: 'CENTERS:4/3 EDGES:6/2', moves: /^[ULRB]$/, puzzle: 'pyraminx' },
  { sets: 'CENTERS:6/1 CORNERS:8/3', moves: /^[RLUB]$/, puzzle: 'skewb' },
  // 4x4x4-fixed-corner: outer U R F and the inner slices u d r l f b, each turning like its
  // face: cubing.js's 2U 2D 2R 2L 2F 2B.
  { sets: 'CENTERS:24/1 CORNERS:7/3 EDGES:24/1', moves: /^[URFudrlfb]$/, puzzle: '4x4x4', translate: innerSlices },
];

const moveNamesOf = (info) => (info.moves || []).map((m) => (typeof m === 'string' ? m : m.name));
const setsOf = (info) => (info.sets || []).map((s) => `${s.name}:${s.pieces}/${s.orientations}`).sort().join(' ');
const writtenAsIs = (tokens) => tokens.slice();

export function recognise(info) {
  const sets = setsOf(info);
  const moves = moveNamesOf(info);
  const r = RECOGNISED.find((x) => x.sets === sets && moves.length && moves.every((m) => x.moves.test(m)));
  return r ? { puzzle: r.puzzle, translate: r.translate || writtenAsIs } : null;
}

// A KPuzzle definition of cubing.js's own (its name is a cubing.js puzzle id: megaminx, 4x4x4,
// ...; cubing.js exports them) is drawn by that puzzle when its sets and moves are cubing.js's.
// This loads cubing.js's puzzle list (a chunk of its own), so only for a name it has.
const CUBING_IDS = /^(\d+x\d+x\d+|megaminx|gigaminx|pyraminx|master_tetraminx|skewb|master_skewb|fto|master_fto|baby_fto|melindas2x2x2x2|square1|clock|kilominx|redi_cube|loopover)$/;
async function recogniseByCubing(info) {
  if (!CUBING_IDS.test(info.name || '')) return null;
  let puzzles;
  try {
    ({ puzzles } = await import('cubing/puzzles'));
  } catch {
    return null; // no 3D code (an unbundled page): drawn flat
  }
  const loader = puzzles[info.name];
  if (!loader || !loader.kpuzzle) return null;
  const definition = (await loader.kpuzzle()).definition;
  const moves = moveNamesOf(info);
  if (!moves.length || !moves.every((m) => Object.hasOwn(definition.moves, m))) return null;
  // An orbit the file leaves out is fine when none of the file's moves permutes it in
  // cubing.js's puzzle (the megaminx's fixed centres, which its face turns only turn in place).
  const inFile = new Set((info.sets || []).map((s) => s.name));
  const permuted = (o) => moves.some((name) => {
    const t = definition.moves[name][o.orbitName];
    return t && t.permutation && t.permutation.some((p, i) => p !== i);
  });
  const kept = definition.orbits.filter((o) => inFile.has(o.orbitName) || permuted(o));
  const orbits = setsOf({ sets: kept.map((o) => ({ name: o.orbitName, pieces: o.numPieces, orientations: o.numOrientations })) });
  if (orbits !== setsOf(info)) return null;
  return { puzzle: info.name, translate: writtenAsIs };
}

// A puzzle this size gets a uniformly random scramble whose 3D moves come from an engine solve;
// a bigger one a scramble of random moves (an optimal solve of it could take minutes).
const SOLVABLE_QUICKLY = 1e8;
const RANDOM_MOVES = 30;

export const defPuzzle = {
  label: 'From a definition file',
  options: [],
  help: 'Upload a definition file (.tws / .def / KPuzzle .json) or open an example; the buttons are its moves.',
  commands: [],
  file: null, // {name, text}
  example: null, // the example's name when the file is one
  info: null,
  moveNames: [],
  view: null, // {puzzle, translate} when cubing.js draws it
  // How solve() solves: '' (optimally), 'auto' (def solve --phases auto) or 'file' (the
  // example's phase file, EXAMPLE_PHASES; its text in phaseText once loaded).
  phases: '',
  phaseText: null,
  get puzzle3d() { return this.view ? this.view.puzzle : null; },
  params(verb, extra) {
    const command = this.commands.find((c) => c.verb === verb);
    return { [fileParam(command)]: this.file, ...extra };
  },
  async load(name, text) {
    this.file = { name, text };
    this.phaseText = null;
    this.info = await call('def', 'info', this.params('info', {}));
    this.moveNames = (this.info.moves || []).map((m) => (typeof m === 'string' ? m : m.name));
    this.view = recognise(this.info) || await recogniseByCubing(this.info);
    this.example = null;
  },
  async loadExample(name) {
    if (!Object.hasOwn(EXAMPLES, name)) throw new Error(`there is no example called '${name}'`);
    if (this.example === name) return;
    const response = await fetch(`/examples/${name}.tws`);
    if (!response.ok) throw new Error(`the example ${name} is not served (HTTP ${response.status})`);
    await this.load(`${name}.tws`, await response.text());
    this.example = name;
    if (Object.hasOwn(EXAMPLE_PHASES, name)) {
      const phases = await fetch(`/examples/${EXAMPLE_PHASES[name]}.phases`);
      if (!phases.ok) throw new Error(`the phase file of ${name} is not served (HTTP ${phases.status})`);
      this.phaseText = await phases.text();
    }
  },
  // The phase file's name when the puzzle has one (the page offers solving in its phases).
  phaseFile() { return this.example && Object.hasOwn(EXAMPLE_PHASES, this.example) ? `${EXAMPLE_PHASES[this.example]}.phases` : null; },
  buttons() { return this.moveNames; },
  solved() { return { text: null, state: null, solved: true, alg: [] }; },
  position(out, alg) {
    return { text: out.scramble || null, state: out.state || null, solved: out.solved === true, alg };
  },
  // The 3D moves of a position the engine gives as a state: the inverse of an engine solution.
  async algOf(text) {
    if (!this.view || !text || Number(this.info.positions) > SOLVABLE_QUICKLY) return null;
    const sol = await this.solve({ text });
    return invertMoves(this.view.translate(sol.moves));
  },
  async scramble(opts, seed) {
    if (!this.file) throw new Error('upload a definition file or open an example first');
    if (this.view && Number(this.info.positions) > SOLVABLE_QUICKLY) {
      const random = rng(seed);
      const names = this.info.search_moves || this.moveNames;
      const moves = [];
      while (moves.length < RANDOM_MOVES) {
        const m = names[random(names.length)];
        const face = (x) => x.replace(/['\d]+$/, '');
        if (!moves.length || face(moves[moves.length - 1]) !== face(m)) moves.push(m);
      }
      const out = await call('def', 'apply', this.params('apply', { moves: moves.join(' ') }));
      return this.position(out, this.view.translate(moves));
    }
    // A big puzzle without a 3D view: no scramble sequence (a phase solve could take long).
    const big = Number(this.info.positions) > SOLVABLE_QUICKLY || this.info.positions == null;
    const out = await call('def', 'random', this.params('random', big ? { seed, 'no-moves': true } : { seed }));
    // def random's own scramble sequence (replayed by the engine) when it found one.
    if (this.view && Array.isArray(out.moves)) return this.position(out, this.view.translate(out.moves));
    return this.position(out, await this.algOf(out.scramble));
  },
  encode: (s) => s.text || '',
  async decode(opts, text) {
    if (!this.file) throw new Error('upload the definition file first, then open the link');
    if (!text) return this.solved();
    const out = await call('def', 'apply', this.params('apply', { moves: '', state: text }));
    return this.position(out, await this.algOf(out.scramble));
  },
  // m: one move, or several separated by spaces (a pasted alg).
  async apply(s, m) {
    const extra = { moves: m };
    if (s.text) extra.state = s.text;
    const out = await call('def', 'apply', this.params('apply', extra));
    const alg = this.view && s.alg ? s.alg.concat(this.view.translate(splitAlg(m))) : null;
    return this.position(out, alg);
  },
  // 2D: each set of the definition as a row of cells, one per place, showing the piece there
  // (coloured by its home place) and its orientation.
  render(board, s) {
    board.replaceChildren();
    const box = document.createElement('div');
    box.className = 'defpos';
    if (!this.file) {
      box.textContent = 'No definition file yet: upload one or pick an example.';
      board.append(box);
      return;
    }
    const title = document.createElement('div');
    title.textContent = `${this.info.name || this.file.name}: ${this.info.positions || '?'} positions`
      + `${this.info.structure ? `, group ${this.info.structure}` : ''}`;
    box.append(title);
    for (const set of this.info.sets || []) {
      const v = s.state && s.state[set.name];
      const row = document.createElement('div');
      row.className = 'defset';
      const name = document.createElement('span');
      name.className = 'defset-name';
      name.textContent = set.name;
      row.append(name);
      for (let place = 0; place < set.pieces; ++place) {
        const piece = v && v.pieces ? v.pieces[place] : place;
        const twist = v && v.orientation ? v.orientation[place] : 0;
        const cell = document.createElement('span');
        cell.className = 'defcell';
        cell.style.background = `hsl(${Math.round((piece / set.pieces) * 330)} 65% 62%)`;
        cell.textContent = String(piece + 1);
        if (twist) {
          const t = document.createElement('sup');
          t.textContent = twist === null ? '?' : `+${twist}`;
          cell.append(t);
        }
        cell.title = `place ${place + 1}: piece ${piece + 1}${set.orientations > 1 ? `, orientation ${twist ?? '?'}` : ''}`;
        row.append(cell);
      }
      box.append(row);
    }
    board.append(box);
  },
  // A key that is one of the file's move names plays it (Shift+key: its inverse when the name
  // is a letter that has no upper/lower-case twin among the moves).
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return null;
    if (this.moveNames.includes(e.key)) return e.key;
    const other = e.key === e.key.toUpperCase() ? e.key.toLowerCase() : e.key.toUpperCase();
    if (e.shiftKey && this.moveNames.includes(other) && !this.moveNames.includes(e.key)) return `${other}'`;
    return null;
  },
  isSolved: (s) => s.solved === true,
  async solve(s, run = call) {
    const extra = s.text ? { state: s.text } : { moves: '' };
    if (this.phases === 'file') {
      if (!this.phaseText) throw new Error('this puzzle has no phase file: solve optimally or in phases (auto)');
      extra.phases = this.phaseText;
    } else if (this.phases) {
      extra.phases = this.phases;
    }
    const out = await run('def', 'solve', this.params('solve', extra));
    const first = (out.solutions || [out])[0];
    let moves = first.moves || [];
    if (typeof moves === 'string') moves = moves.trim() ? moves.trim().split(/\s+/) : [];
    return { moves, optimal: first.optimal, length: first.length };
  },
  describeMove: (m) => ({ text: m }),
};
