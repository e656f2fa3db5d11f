// Any puzzle from an uploaded definition file (ksolve/twsearch text or KPuzzle JSON), through
// the engine's generic `def` commands (info, apply, random, solve), found in GET
// /api/v1/commands: the page offers it only when they exist.
//
// A position is kept as the engine prints it: a scramble-file entry ("Scramble NAME ... End"),
// which `def apply --state` and `def solve --state` read back, with the state as JSON for the
// picture. The solved pattern is the state null (no --state).
import { call } from './api.js';

// The file's parameter of a def command: its positional input-file parameter.
function fileParam(command) {
  const params = command ? command.params : [];
  const p = params.find((x) => x.type === 'input-file' && x.positional)
    || params.find((x) => x.type === 'input-file');
  return p ? p.name : 'file';
}

function position(out) {
  return { text: out.scramble || null, state: out.state || null, solved: out.solved === true };
}

export const defPuzzle = {
  label: 'From a definition file',
  options: [],
  help: 'Upload a definition file (.tws / .def / KPuzzle .json); the buttons are its moves.',
  commands: [],
  file: null, // {name, text}
  info: null,
  moveNames: [],
  params(verb, extra) {
    const command = this.commands.find((c) => c.verb === verb);
    return { [fileParam(command)]: this.file, ...extra };
  },
  async load(name, text) {
    this.file = { name, text };
    this.info = await call('def', 'info', this.params('info', {}));
    this.moveNames = (this.info.moves || []).map((m) => (typeof m === 'string' ? m : m.name));
  },
  buttons() { return this.moveNames; },
  solved() { return { text: null, state: null, solved: true }; },
  async scramble(opts, seed) {
    if (!this.file) throw new Error('upload a definition file first');
    return position(await call('def', 'random', this.params('random', { seed })));
  },
  encode: (s) => s.text || '',
  async decode(opts, text) {
    if (!this.file) throw new Error('upload the definition file first, then open the link');
    if (!text) return this.solved();
    return position(await call('def', 'apply', this.params('apply', { moves: '', state: text })));
  },
  async apply(s, m) {
    const extra = { moves: m };
    if (s.text) extra.state = s.text;
    return position(await call('def', 'apply', this.params('apply', extra)));
  },
  render(board, s) {
    board.replaceChildren();
    const pre = document.createElement('pre');
    pre.className = 'defpos';
    if (!this.file) {
      pre.textContent = 'No definition file yet.';
    } else {
      const lines = [`${this.info.name || this.file.name}: ${this.info.positions || '?'} positions`
        + `${this.info.structure ? `, group ${this.info.structure}` : ''}`];
      if (s.state && typeof s.state === 'object') {
        for (const [set, v] of Object.entries(s.state)) {
          if (!v || !v.pieces) continue;
          const o = v.orientation ? ` / ${v.orientation.map((x) => (x === null ? '?' : x)).join(' ')}` : '';
          lines.push(`${set}: ${v.pieces.map((x) => x + 1).join(' ')}${o}`);
        }
      } else {
        lines.push('solved');
      }
      pre.textContent = lines.join('\n');
    }
    board.append(pre);
  },
  key: () => null,
  isSolved: (s) => s.solved === true,
  async solve(s, run = call) {
    const extra = s.text ? { state: s.text } : { moves: '' };
    const out = await run('def', 'solve', this.params('solve', extra));
    const first = (out.solutions || [out])[0];
    let moves = first.moves || [];
    if (typeof moves === 'string') moves = moves.trim() ? moves.trim().split(/\s+/) : [];
    return { moves, optimal: first.optimal, length: first.length };
  },
  describeMove: (m) => ({ text: m }),
};
