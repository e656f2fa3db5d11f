// The play page: one puzzle at a time through its adapter (puzzles.js), with scramble (seeded),
// timer from the first move, move counter, undo/redo, reset, hint, a steppable solution and a
// link that encodes the position (#play/<puzzle>?<options>&seed=S&pos=P).
import { describeError, commands, job } from './api.js';
import { PUZZLES } from './puzzles.js';
import { defPuzzle } from './defpuzzle.js';

const $ = (id) => document.getElementById(id);

const game = {
  name: 'sliding',
  adapter: PUZZLES.sliding,
  opts: {},
  seed: null,
  start: null,   // the scrambled position (reset goes back here)
  history: [],   // positions after each move; history[0] = start
  index: 0,      // current position = history[index]
  startedAt: null,
  finishedAt: null,
  solution: null, // {states, moves, index, timer}
  busy: Promise.resolve(),
  token: 0,       // bumps on every new position load, so stale answers are ignored
};

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

const current = () => (game.solution ? game.solution.states[game.solution.index] : game.history[game.index]);

function showError(error) {
  $('play-error').textContent = error ? describeError(error) : '';
}

function link() {
  const params = new URLSearchParams(game.opts);
  if (game.seed !== null) params.set('seed', game.seed);
  params.set('pos', game.adapter.encode(current()));
  return `#play/${game.name}?${params}`;
}

function tick() {
  const t = game.startedAt === null ? 0 : ((game.finishedAt || performance.now()) - game.startedAt) / 1000;
  $('timer').textContent = t.toFixed(1);
}
setInterval(() => { if (game.startedAt !== null && game.finishedAt === null) tick(); }, 100);

function render() {
  const s = current();
  const ui = { move: (m) => play(m), render };
  const board = $('board');
  // Only the puzzle that draws now may handle pointer drags (Loopover sets these).
  board.onpointerdown = board.onpointermove = board.onpointerup = board.onpointercancel = null;
  game.adapter.render(board, s, ui);
  $('moves').textContent = String(game.index);
  $('undo').disabled = game.index === 0 || !!game.solution;
  $('redo').disabled = game.index >= game.history.length - 1 || !!game.solution;
  $('seed-shown').textContent = game.seed !== null ? `seed ${game.seed}` : '';
  $('link').href = link();
  const solved = game.adapter.isSolved(s);
  const shown = $('solved');
  if (game.solution) {
    shown.hidden = !solved;
    shown.textContent = `Solved by the solver in ${plural(game.solution.moves.length, 'move')}`;
  } else if (solved && game.index > 0) {
    shown.hidden = false;
    shown.textContent = `Solved in ${plural(game.index, 'move')} (${$('timer').textContent} s)`;
  } else {
    shown.hidden = true;
  }
  renderSolution();
}

function renderSolution() {
  const box = $('solution');
  const sol = game.solution;
  box.hidden = !sol;
  if (!sol) return;
  $('step-play').textContent = sol.timer ? 'Pause' : 'Play';
  const list = $('solution-moves');
  list.replaceChildren();
  sol.moves.forEach((m, i) => {
    const span = document.createElement('span');
    span.textContent = m;
    if (i === sol.index - 1) span.className = 'current';
    list.append(span, ' ');
  });
  const note = document.createElement('span');
  note.textContent = ` (${plural(sol.moves.length, 'move')}${sol.optimal ? ', optimal' : ''}; at move ${sol.index})`;
  list.append(note);
}

// Plays one move (from the board, the keys or a button); moves are queued so that server-side
// moves apply in order.
function play(move) {
  if (game.solution) stopSolution();
  const token = game.token;
  game.busy = game.busy.then(async () => {
    if (token !== game.token) return;
    try {
      const next = await game.adapter.apply(game.history[game.index], move);
      if (!next || token !== game.token) return;
      showError(null);
      game.history.length = game.index + 1;
      game.history.push(next);
      game.index += 1;
      if (game.startedAt === null) game.startedAt = performance.now();
      if (game.adapter.isSolved(next)) {
        game.finishedAt = performance.now();
        tick();
      }
      $('hint-text').textContent = '';
      render();
    } catch (e) {
      showError(e);
    }
  });
}

function load(state, seed) {
  game.token += 1;
  game.seed = seed;
  game.start = state;
  game.history = [state];
  game.index = 0;
  game.startedAt = null;
  game.finishedAt = null;
  stopSolution();
  tick();
  $('hint-text').textContent = '';
  showError(null);
  render();
}

function readOptions() {
  const opts = {};
  for (const o of game.adapter.options) opts[o.name] = $(`opt-${o.name}`).value.trim();
  return opts;
}

function buildOptions() {
  const box = $('puzzle-options');
  box.replaceChildren();
  for (const o of game.adapter.options) {
    const label = document.createElement('label');
    label.textContent = `${o.label} `;
    const input = document.createElement('input');
    input.id = `opt-${o.name}`;
    input.size = 5;
    input.value = game.opts[o.name] ?? o.value;
    input.onchange = () => newPuzzle(false);
    label.append(input);
    box.append(label);
  }
  const buttons = $('move-buttons');
  buttons.replaceChildren();
  if (game.adapter.buttons) {
    let list = [];
    try { list = game.adapter.buttons(readOptions()); } catch { list = []; }
    for (const m of list) {
      const b = document.createElement('button');
      b.textContent = m;
      b.dataset.move = m;
      b.onclick = () => play(m);
      buttons.append(b);
    }
  }
  $('play-help').textContent = game.adapter.help || '';
  $('upload').hidden = game.name !== 'def';
}

async function newPuzzle(scramble) {
  try {
    game.opts = readOptions();
    buildOptions();
    if (scramble) {
      const seed = Number($('seed').value) || 0;
      load(await game.adapter.scramble(game.opts, seed), seed);
    } else {
      load(await game.adapter.solved(game.opts), null);
    }
  } catch (e) {
    showError(e);
  }
}

function stopSolution() {
  if (game.solution && game.solution.timer) clearInterval(game.solution.timer);
  game.solution = null;
}

async function hint() {
  const s = game.history[game.index];
  if (game.adapter.isSolved(s)) {
    $('hint-text').textContent = 'Already solved.';
    return;
  }
  $('hint-text').textContent = 'Thinking…';
  const token = game.token;
  const index = game.index;
  try {
    const sol = await game.adapter.solve(s);
    if (token !== game.token || index !== game.index) return;
    const first = sol.moves[0];
    const d = game.adapter.describeMove(first, s);
    const left = sol.optimal ? `${plural(sol.moves.length, 'move')} left (optimal)`
      : `${plural(sol.moves.length, 'move')} left by this solution (not proven optimal)`;
    const hintBox = $('hint-text');
    hintBox.textContent = `Next: ${d.text}${d.key ? ` — press ${d.key}` : ''} · ${left}`;
    hintBox.dataset.move = first;
    hintBox.dataset.key = d.key || '';
    hintBox.dataset.left = String(sol.moves.length);
    showError(null);
  } catch (e) {
    $('hint-text').textContent = '';
    showError(e);
  }
}

// The whole solution runs as a job (a long solve shows its progress and can be cancelled).
let solving = null;

async function solve() {
  const start = game.history[game.index];
  const token = game.token;
  $('hint-text').textContent = 'Solving…';
  const runAsJob = async (family, verb, params) => {
    solving = await job(family, verb, params, (p) => {
      $('hint-text').textContent = `Solving… ${[p.phase, p.message].filter((x) => x).join(': ')}`;
    });
    $('solve-cancel').hidden = false;
    try {
      return await solving.result;
    } finally {
      solving = null;
      $('solve-cancel').hidden = true;
    }
  };
  try {
    const sol = await game.adapter.solve(start, runAsJob);
    const states = [start];
    for (const m of sol.moves) {
      const next = await game.adapter.apply(states[states.length - 1], m);
      if (!next) throw new Error(`the solver's move ${m} does not apply (this is a bug)`);
      states.push(next);
    }
    if (token !== game.token) return;
    $('hint-text').textContent = sol.note ? String(sol.note) : '';
    stopSolution();
    game.solution = { states, moves: sol.moves, index: 0, optimal: sol.optimal, timer: null };
    showError(null);
    stepPlay();
  } catch (e) {
    $('hint-text').textContent = e.kind === 'cancelled' ? 'Solve cancelled.' : '';
    if (e.kind !== 'cancelled') showError(e);
  }
}

function step(to) {
  const sol = game.solution;
  if (!sol) return;
  sol.index = Math.max(0, Math.min(sol.states.length - 1, to));
  render();
}

function stepPlay() {
  const sol = game.solution;
  if (!sol) return;
  if (sol.timer) {
    clearInterval(sol.timer);
    sol.timer = null;
    render();
    return;
  }
  if (sol.index >= sol.states.length - 1) sol.index = 0;
  render();
  sol.timer = setInterval(() => {
    if (!game.solution || sol.index >= sol.states.length - 1) {
      clearInterval(sol.timer);
      sol.timer = null;
      if (game.solution === sol) render();
      return;
    }
    step(sol.index + 1);
  }, 300);
  renderSolution();
}

function onKey(e) {
  if (document.querySelector('#page-play').hidden) return;
  if (e.target.matches('input, textarea, select')) return;
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') { undo(); e.preventDefault(); return; }
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'y') { redo(); e.preventDefault(); return; }
  if (e.key === 'h' && !e.ctrlKey && !e.metaKey && !e.altKey) { hint(); return; }
  const ui = { move: (m) => play(m), render };
  const m = game.adapter.key(e, current(), ui);
  if (m === 'render') { render(); e.preventDefault(); return; }
  if (m) { play(m); e.preventDefault(); }
}

function undo() {
  if (game.solution || game.index === 0) return;
  game.index -= 1;
  render();
}
function redo() {
  if (game.solution || game.index >= game.history.length - 1) return;
  game.index += 1;
  render();
}

// #play/<puzzle>?size=4x4&seed=3&pos=...
export async function openPlay(path, query) {
  const name = path || game.name;
  const adapter = name === 'def' ? defPuzzle : PUZZLES[name];
  if (!adapter) {
    showError(`no such puzzle: ${name}`);
    return;
  }
  const params = new URLSearchParams(query || '');
  if (name !== game.name || params.toString()) {
    game.name = name;
    game.adapter = adapter;
    $('puzzle').value = name;
    game.opts = {};
    for (const o of adapter.options) game.opts[o.name] = params.get(o.name) ?? o.value;
    buildOptions();
    try {
      if (params.has('pos')) {
        const seed = params.has('seed') ? Number(params.get('seed')) : null;
        load(await adapter.decode(game.opts, params.get('pos')), seed);
      } else if (params.has('seed')) {
        $('seed').value = params.get('seed');
        await newPuzzle(true);
      } else {
        await newPuzzle(false);
      }
    } catch (e) {
      load(adapter.solved(game.opts), null);
      showError(e);
    }
  } else if (!game.start) {
    buildOptions();
    await newPuzzle(false);
  }
}

export function initPlay() {
  const select = $('puzzle');
  for (const [name, a] of Object.entries(PUZZLES)) select.add(new Option(a.label, name));
  // Definition files: offered only when the engine has the `def` family.
  commands().then((list) => {
    const verbs = new Set(list.filter((c) => c.family === 'def').map((c) => c.verb));
    if (['info', 'apply', 'random', 'solve'].every((v) => verbs.has(v))) {
      defPuzzle.commands = list.filter((c) => c.family === 'def');
      select.add(new Option('From a definition file…', 'def'));
    }
  }).catch(() => {});
  select.onchange = () => { location.hash = `#play/${select.value}`; };
  $('scramble').onclick = () => newPuzzle(true);
  $('random-seed').onclick = () => {
    $('seed').value = String(Math.floor(Math.random() * 1e9));
    newPuzzle(true);
  };
  $('undo').onclick = undo;
  $('redo').onclick = redo;
  $('reset').onclick = () => load(game.start, game.seed);
  $('hint').onclick = hint;
  $('solve').onclick = solve;
  $('solve-cancel').onclick = () => solving && solving.cancel();
  $('step-start').onclick = () => step(0);
  $('step-back').onclick = () => step(game.solution ? game.solution.index - 1 : 0);
  $('step-next').onclick = () => step(game.solution ? game.solution.index + 1 : 0);
  $('step-end').onclick = () => { if (game.solution && game.solution.timer) stepPlay(); step(Infinity); };
  $('step-play').onclick = stepPlay;
  $('def-file').onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      await defPuzzle.load(file.name, await file.text());
      $('def-name').textContent = file.name;
      buildOptions();
      load(defPuzzle.solved(), null);
    } catch (err) {
      showError(err);
    }
  };
  document.addEventListener('keydown', onKey);
}
