// Any puzzle from an uploaded definition file (ksolve/twsearch text or KPuzzle JSON), through
// the engine's generic `def` commands (info, apply, random, solve), found in GET
// /api/v1/commands: the page offers it only when they exist.
//
// A position is kept as the move sequence that reaches it from the solved state (what `def
// apply --moves` and `def solve --moves` take); its pieces are shown as the engine reports them.
import { call } from './api.js';
import { rng } from './rng.js';

function paramOf(command, pred) {
  const p = command && command.params.find(pred);
  return p ? p.name : null;
}

export const defPuzzle = {
  label: 'From a definition file',
  options: [],
  help: 'Upload a definition file (.tws / .def / KPuzzle .json); the buttons are its moves.',
  commands: [],
  file: null, // {name, text}
  info: null,
  moveNames: [],
  command(verb) { return this.commands.find((c) => c.verb === verb); },
  // The parameters of a def call: the file under the command's input-file parameter.
  params(verb, extra) {
    const c = this.command(verb);
    const fileParam = paramOf(c, (p) => p.type === 'input-file') || 'file';
    return { [fileParam]: this.file, ...extra };
  },
  async load(name, text) {
    this.file = { name, text };
    this.info = await call('def', 'info', this.params('info', {}));
    this.moveNames = (this.info.moves || []).map((m) => (typeof m === 'string' ? m : m.name));
  },
  buttons() { return this.moveNames; },
  solved() { return { moves: [], pieces: null }; },
  async scramble(opts, seed) {
    if (!this.file) throw new Error('upload a definition file first');
    const out = await call('def', 'random', this.params('random', { seed }));
    let moves = out.moves || out.scramble;
    if (typeof moves === 'string') moves = moves.trim().split(/\s+/);
    if (!Array.isArray(moves)) {
      // The engine gave a state, not a sequence: scramble by seeded random moves instead.
      const random = rng(seed);
      moves = Array.from({ length: 40 }, () => this.moveNames[random(this.moveNames.length)]);
    }
    return this.apply({ moves: [], pieces: null }, moves);
  },
  encode: (s) => s.moves.join('_'),
  async decode(opts, text) {
    if (!this.file) throw new Error('upload the definition file first, then open the link');
    return this.apply({ moves: [], pieces: null }, text ? text.split('_') : []);
  },
  async apply(s, m) {
    const moves = s.moves.concat(m);
    const out = await call('def', 'apply', this.params('apply', { moves: moves.join(' ') }));
    return { moves, pieces: out.state || out, solved: out.solved };
  },
  render(board, s) {
    board.replaceChildren();
    const pre = document.createElement('pre');
    pre.className = 'defpos';
    if (!this.file) {
      pre.textContent = 'No definition file yet.';
    } else {
      const lines = [`${this.info.name || this.file.name}: ${this.info.positions || '?'} positions`];
      const pieces = s.pieces && (s.pieces.state || s.pieces);
      if (pieces && typeof pieces === 'object') {
        for (const [set, v] of Object.entries(pieces)) {
          if (v && v.pieces) lines.push(`${set}: ${v.pieces.join(' ')}${v.orientation ? ` / ${v.orientation.map((o) => (o === null ? '?' : o)).join(' ')}` : ''}`);
        }
      }
      lines.push(`moves from solved: ${s.moves.join(' ') || '(none)'}`);
      pre.textContent = lines.join('\n');
    }
    board.append(pre);
  },
  key: () => null,
  isSolved: (s) => (s.solved !== undefined ? s.solved === true : s.moves.length === 0),
  async solve(s, run = call) {
    const out = await run('def', 'solve', this.params('solve', { moves: s.moves.join(' ') }));
    const first = (out.solutions || [out])[0];
    let moves = first.moves || [];
    if (typeof moves === 'string') moves = moves.trim() ? moves.trim().split(/\s+/) : [];
    return { moves, optimal: first.optimal, length: first.length };
  },
  describeMove: (m) => ({ text: m }),
};
