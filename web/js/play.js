// The play page: one puzzle at a time through its adapter (puzzles.js, defpuzzle.js), opened
// scrambled from a fresh seed (shown, and in the link), with a timer (optional 15 s inspection)
// whose solves go to sessions (sessions.js), move counter, undo/redo, reset, hint, a steppable
// solution and a link that encodes the position (#play/<puzzle>?<options>&seed=S&pos=P).
// Puzzles cubing.js draws (adapter.puzzle3d) are shown in 3D (view3d.js), others in 2D.
import { describeError, commands, job } from './api.js';
import { PUZZLES } from './puzzles.js';
import { defPuzzle, EXAMPLES } from './defpuzzle.js';
import { View3D } from './view3d.js';
import { Sessions, stats, formatTime, toCsv, result, browserStorage } from './sessions.js';

const $ = (id) => document.getElementById(id);

const INSPECTION_MS = 15000;

const game = {
  name: 'sliding',
  adapter: PUZZLES.sliding,
  opts: {},
  seed: null,
  start: null,   // the scrambled position (reset goes back here)
  history: [],   // positions after each move; history[0] = start
  index: 0,      // current position = history[index]
  inspectingSince: null, // inspection runs from the scramble to the first move
  penalty: '',   // '' | '+2' | 'DNF' (inspection overrun)
  startedAt: null,
  finishedAt: null,
  recorded: false, // this solve is in the session
  solution: null, // {states, moves, index, timer}
  broken: null,  // why the URL opened no puzzle (the board is disabled)
  busy: Promise.resolve(),
  token: 0,       // bumps on every new position load, so stale answers are ignored
  request: 0,     // bumps on every scramble or link asked for: only the last one loads
};

let sessions = null;
const views = {};     // View3D per cubing.js puzzle id, kept across puzzles
let noThreeD = null;  // why the 3D view cannot load (then every puzzle is drawn flat)
let followingPlayer = false; // render() after the 3D player moved: it shows the position already

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

const current = () => (game.solution ? game.solution.states[game.solution.index] : game.history[game.index]);

// A message in the page's words: the engine names options as the CLI does (--size), the page
// by their labels (Size).
function userWords(text) {
  const labels = Object.fromEntries((game.adapter.options || []).map((o) => [o.name, o.label]));
  return String(text).replace(/--([a-z][a-z0-9-]*)/g, (all, name) => labels[name] || name);
}

function showError(error) {
  $('play-error').textContent = error ? userWords(describeError(error)) : '';
}

function link() {
  const params = new URLSearchParams(game.opts);
  if (game.seed !== null) params.set('seed', game.seed);
  params.set('pos', game.adapter.encode(current()));
  return `#play/${game.name}?${params}`;
}

// Seconds from the first move to the solve (or now).
function elapsed() {
  return game.startedAt === null ? 0 : ((game.finishedAt || performance.now()) - game.startedAt) / 1000;
}

function tick() {
  const label = $('timer-label');
  if (game.inspectingSince !== null && game.startedAt === null) {
    const left = (INSPECTION_MS - (performance.now() - game.inspectingSince)) / 1000;
    label.textContent = 'Inspection';
    $('timer').textContent = left > 0 ? String(Math.ceil(left)) : left > -2 ? '+2' : 'DNF';
    return;
  }
  label.textContent = 'Time';
  $('timer').textContent = elapsed().toFixed(2) + (game.penalty ? ` ${game.penalty}` : '');
}
setInterval(() => {
  if ((game.startedAt !== null && game.finishedAt === null) || (game.inspectingSince !== null && game.startedAt === null)) tick();
}, 100);

// The 3D view of this puzzle, or null when it is drawn flat.
function view3d() {
  const id = game.adapter.puzzle3d;
  if (!id || noThreeD) return null;
  if (!views[id]) {
    views[id] = new View3D(id, {
      onUserMove: (m) => play(m),
      onIndex: (i) => {
        // The player's own controls (play, scrubber) moved through the solution: the step is
        // the last whose 3D moves are all shown (one engine move may be several cubing.js moves).
        const sol = game.solution;
        if (!sol || game.adapter.puzzle3d !== id || !sol.states[0].alg) return;
        const base = sol.states[0].alg.length;
        let k = 0;
        while (k + 1 < sol.states.length && sol.states[k + 1].alg.length - base <= i) k += 1;
        sol.index = k;
        followingPlayer = true;
        try { render(); } finally { followingPlayer = false; }
      },
      onPlaying: () => { if (game.solution) renderSolution(); },
    });
  }
  return views[id];
}

function renderBoard(s, ui) {
  const board = $('board');
  const view = view3d();
  board.classList.toggle('board3d', !!(view && s.alg));
  if (view && s.alg) {
    if (!view.player) {
      if (!board.querySelector('.loading')) {
        const note = document.createElement('div');
        note.className = 'loading';
        note.textContent = 'Loading the 3D view…';
        board.replaceChildren(note);
      }
      view.mount().then(() => render()).catch((e) => {
        noThreeD = e.message;
        $('play-help').textContent = helpText();
        render();
      });
      return;
    }
    if (board.firstChild !== view.player || board.childNodes.length !== 1) board.replaceChildren(view.player);
    if (!followingPlayer) view.show(s.alg);
    return;
  }
  game.adapter.render(board, s, ui);
}

function setDisabled(broken) {
  for (const id of ['undo', 'redo', 'reset', 'hint', 'solve', 'alg-apply', 'alg-scramble']) $(id).disabled = broken;
  for (const b of $('move-buttons').querySelectorAll('button')) b.disabled = broken;
  $('board').classList.toggle('disabled', broken);
  $('board').setAttribute('aria-disabled', String(broken));
  $('link').hidden = broken;
}

function render() {
  const board = $('board');
  // Only the puzzle that draws now may handle pointer drags (Loopover sets these).
  board.onpointerdown = board.onpointermove = board.onpointerup = board.onpointercancel = null;
  if (game.broken) {
    const note = document.createElement('div');
    note.className = 'broken';
    note.textContent = 'This link opens no puzzle (see the message below). Pick a puzzle or press Scramble.';
    board.replaceChildren(note);
    board.classList.remove('board3d');
    setDisabled(true);
    $('solved').hidden = true;
    $('solution').hidden = true;
    $('seed-shown').textContent = '';
    return;
  }
  setDisabled(false);
  const s = current();
  const ui = { move: (m) => play(m), render };
  renderBoard(s, ui);
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
    shown.textContent = `Solved in ${plural(game.index, 'move')} (${elapsed().toFixed(2)} s${game.penalty ? `, ${game.penalty}` : ''})`;
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
  const view = solution3d();
  $('step-play').textContent = (view ? view.playing : sol.timer) ? 'Pause' : 'Play';
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

// --- Sessions ------------------------------------------------------------------------------

function renderSessions() {
  const select = $('session');
  select.replaceChildren(...sessions.names.map((n) => new Option(n, n)));
  select.value = sessions.current;
  const solves = sessions.solves;
  const st = stats(solves);
  $('stat-count').textContent = String(st.count);
  $('stat-best').textContent = formatTime(st.best);
  $('stat-mean').textContent = formatTime(st.mean);
  $('stat-ao5').textContent = formatTime(st.ao5);
  $('stat-ao12').textContent = formatTime(st.ao12);
  const times = $('times');
  times.replaceChildren();
  solves.slice(-12).forEach((s, i, shown) => {
    const li = document.createElement('li');
    li.value = solves.length - shown.length + i + 1;
    li.textContent = `${formatTime(result(s))}${s.penalty === '+2' ? '+' : ''} · ${s.puzzle} · ${plural(s.moves, 'move')}`;
    times.append(li);
  });
  const exportLink = $('session-export');
  exportLink.href = `data:text/csv;charset=utf-8,${encodeURIComponent(toCsv(solves))}`;
  exportLink.download = `permuzzle-${sessions.current.replace(/[^\w-]+/g, '-')}.csv`;
}

function puzzleTitle() {
  const opts = Object.entries(game.opts).map(([k, v]) => `${k}=${v}`).join(' ');
  return opts ? `${game.name} ${opts}` : game.name;
}

function recordSolve() {
  if (game.recorded || game.startedAt === null || game.adapter.isSolved(game.start)) return;
  game.recorded = true;
  sessions.add({
    puzzle: puzzleTitle(),
    ms: Math.round(game.finishedAt - game.startedAt),
    penalty: game.penalty,
    moves: game.index,
    seed: game.seed,
    date: new Date().toISOString(),
  });
  renderSessions();
}

// --- Moves ---------------------------------------------------------------------------------

// Plays one move (from the board, the keys or a button; or a pasted alg, several moves that
// count as one step); moves are queued so that server-side moves apply in order.
function play(move) {
  if (game.broken) return;
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
      if (game.startedAt === null) {
        game.startedAt = performance.now();
        if (game.inspectingSince !== null) {
          const over = game.startedAt - game.inspectingSince - INSPECTION_MS;
          game.penalty = over > 2000 ? 'DNF' : over > 0 ? '+2' : '';
        }
      }
      if (game.adapter.isSolved(next) && game.finishedAt === null) {
        game.finishedAt = performance.now();
        tick();
        recordSolve();
      }
      $('hint-text').textContent = '';
      render();
    } catch (e) {
      showError(e);
      render(); // the 3D view may show a move the engine refused: back to the engine's position
    }
  });
}

function load(state, seed) {
  game.token += 1;
  game.broken = null;
  game.seed = seed;
  game.start = state;
  game.history = [state];
  game.index = 0;
  game.startedAt = null;
  game.finishedAt = null;
  game.penalty = '';
  game.recorded = false;
  game.inspectingSince = $('inspection').checked && !game.adapter.isSolved(state) ? performance.now() : null;
  stopSolution();
  tick();
  $('hint-text').textContent = '';
  showError(null);
  render();
}

// The URL or a request opened no puzzle: say why and disable the board.
function fail(error) {
  game.token += 1;
  stopSolution();
  game.broken = error;
  game.start = null;
  game.inspectingSince = null;
  game.startedAt = null;
  showError(error);
  render();
}

function readOptions() {
  const opts = {};
  for (const o of game.adapter.options) opts[o.name] = $(`opt-${o.name}`).value.trim();
  if (game.adapter === defPuzzle && defPuzzle.example) opts.example = defPuzzle.example;
  return opts;
}

// The puzzle selector's value for what is open (an example definition file is its own entry).
function selectValue() {
  if (game.name === 'def' && defPuzzle.example) return `def?example=${defPuzzle.example}`;
  return game.name;
}

function syncSelect() {
  const select = $('puzzle');
  const value = selectValue();
  if ([...select.options].some((o) => o.value === value)) select.value = value;
  else if ([...select.options].some((o) => o.value === game.name)) select.value = game.name;
}

// The help line; a 3D puzzle drawn flat says why and how the flat view is played.
function helpText() {
  const a = game.adapter;
  if (noThreeD && a.puzzle3d) return `${noThreeD}. ${a.help2d || a.help || ''}`;
  return a.help || '';
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
    input.onchange = () => newPuzzle(true);
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
  $('play-help').textContent = helpText();
  $('upload').hidden = game.name !== 'def';
  $('def-example').value = defPuzzle.example || '';
  syncPhaseOption();
  $('alg-row').hidden = !(game.name === 'cube' || game.name === 'def');
  $('facelets-box').hidden = game.name !== 'cube';
  syncSelect();
}

// The def page's "in phases (FILE)" choice exists while the puzzle is an example with a phase
// file; choosing another puzzle while it was selected falls back to optimal solves.
function syncPhaseOption() {
  const select = $('def-phases');
  const file = defPuzzle.phaseFile();
  let option = select.querySelector('option[value="file"]');
  if (file && !option) {
    option = new Option('', 'file');
    select.add(option);
  }
  if (option) {
    option.textContent = file ? `in phases (${file})` : '';
    option.hidden = !file;
    option.disabled = !file;
  }
  if (!file && select.value === 'file') select.value = '';
  defPuzzle.phases = select.value;
}

function freshSeed() {
  return Math.floor(Math.random() * 1e9);
}

// A scrambled position from the seed field (`fresh`: a new seed first).
async function newPuzzle(fresh = false) {
  const request = ++game.request;
  try {
    if (fresh === 'new-seed') $('seed').value = String(freshSeed());
    game.opts = readOptions();
    buildOptions();
    if (game.adapter === defPuzzle && !defPuzzle.file) {
      load(defPuzzle.solved(), null);
      return;
    }
    const text = $('seed').value.trim();
    const seed = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(seed)) throw new Error(`the seed must be a whole number, not '${text}'`);
    const state = await game.adapter.scramble(game.opts, seed);
    if (request === game.request) load(state, seed);
  } catch (e) {
    if (request === game.request) fail(e);
  }
}

function stopSolution() {
  if (game.solution && game.solution.timer) clearInterval(game.solution.timer);
  game.solution = null;
}

async function hint() {
  if (game.broken) return;
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
  if (game.broken) return;
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
    const view = view3d();
    if (view && view.player && start.alg && states[states.length - 1].alg) {
      // In 3D the player animates the solution: its timeline (scrubber) is the solution's.
      view.reset(start.alg, states[states.length - 1].alg.slice(start.alg.length));
      render();
      view.play();
      return;
    }
    stepPlay();
  } catch (e) {
    $('hint-text').textContent = e.kind === 'cancelled' ? 'Solve cancelled.' : '';
    if (e.kind !== 'cancelled') showError(e);
  }
}

const solution3d = () => {
  const view = view3d();
  return view && view.player && game.solution && game.solution.states[0].alg ? view : null;
};

function step(to) {
  const sol = game.solution;
  if (!sol) return;
  sol.index = Math.max(0, Math.min(sol.states.length - 1, to));
  render();
}

function stepPlay() {
  const sol = game.solution;
  if (!sol) return;
  const view = solution3d();
  if (view) {
    view.togglePlay();
    return;
  }
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
  if (document.querySelector('#page-play').hidden || game.broken) return;
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

// #play/<puzzle>?size=4x4&seed=3&pos=... (def: &example=NAME). No seed and no position: a
// fresh seed, scrambled.
export async function openPlay(path, query) {
  const name = path || game.name;
  const adapter = name === 'def' ? defPuzzle : Object.hasOwn(PUZZLES, name) ? PUZZLES[name] : null;
  const params = new URLSearchParams(query || '');
  if (!adapter) {
    fail(new Error(`there is no puzzle called '${name}'`));
    return;
  }
  if (name === game.name && !params.toString() && game.start) return;
  game.name = name;
  game.adapter = adapter;
  game.opts = {};
  for (const o of adapter.options) game.opts[o.name] = params.get(o.name) ?? o.value;
  buildOptions();
  const request = ++game.request;
  try {
    if (name === 'def' && params.has('example')) {
      await defPuzzle.loadExample(params.get('example'));
      if (request !== game.request) return;
      game.opts = readOptions();
      buildOptions();
    }
    if (params.has('pos')) {
      const seed = params.has('seed') ? Number(params.get('seed')) : null;
      const state = await adapter.decode(game.opts, params.get('pos'));
      if (request === game.request) load(state, Number.isSafeInteger(seed) ? seed : null);
      return;
    }
  } catch (e) {
    if (request === game.request) fail(e);
    return;
  }
  $('seed').value = params.has('seed') ? params.get('seed') : String(freshSeed());
  await newPuzzle();
}

export function initPlay() {
  sessions = new Sessions();
  renderSessions();
  const select = $('puzzle');
  for (const [name, a] of Object.entries(PUZZLES)) select.add(new Option(a.label, name));
  // Definition files: offered only when the engine has the `def` family.
  commands().then((list) => {
    const verbs = new Set(list.filter((c) => c.family === 'def').map((c) => c.verb));
    if (['info', 'apply', 'random', 'solve'].every((v) => verbs.has(v))) {
      defPuzzle.commands = list.filter((c) => c.family === 'def');
      for (const [example, label] of Object.entries(EXAMPLES)) select.add(new Option(label, `def?example=${example}`));
      select.add(new Option('From a definition file…', 'def'));
      for (const [example, label] of Object.entries(EXAMPLES)) $('def-example').add(new Option(label, example));
      // The route may have opened the def page before these options existed.
      syncSelect();
      $('def-example').value = defPuzzle.example || '';
    }
  }).catch(() => {});
  select.onchange = () => { location.hash = `#play/${select.value}`; };
  $('def-example').onchange = () => {
    const example = $('def-example').value;
    location.hash = example ? `#play/def?example=${example}` : '#play/def';
  };
  $('scramble').onclick = () => newPuzzle();
  $('random-seed').onclick = () => newPuzzle('new-seed');
  const storage = browserStorage();
  $('inspection').checked = storage.getItem('permuzzle-inspection') === 'on';
  $('inspection').onchange = () => storage.setItem('permuzzle-inspection', $('inspection').checked ? 'on' : 'off');
  $('undo').onclick = undo;
  $('redo').onclick = redo;
  $('reset').onclick = () => { if (game.start) load(game.start, game.seed); };
  $('hint').onclick = hint;
  $('solve').onclick = solve;
  $('solve-cancel').onclick = () => solving && solving.cancel();
  $('step-start').onclick = () => { const v = solution3d(); if (v) v.player.jumpToStart(); else step(0); };
  $('step-back').onclick = () => step(game.solution ? game.solution.index - 1 : 0);
  $('step-next').onclick = () => step(game.solution ? game.solution.index + 1 : 0);
  $('step-end').onclick = () => {
    const v = solution3d();
    if (v) { v.player.jumpToEnd(); return; }
    if (game.solution && game.solution.timer) stepPlay();
    step(Infinity);
  };
  $('step-play').onclick = stepPlay;
  // A pasted alg: applied to the position, or a scramble from solved (a new start).
  $('alg-apply').onclick = () => {
    const text = $('alg').value.trim();
    if (text) play(text);
  };
  $('alg-scramble').onclick = async () => {
    const text = $('alg').value.trim();
    if (!text) return;
    try {
      load(await game.adapter.apply(game.adapter.solved(game.opts), text), null);
    } catch (e) {
      showError(e);
    }
  };
  $('facelets-set').onclick = async () => {
    try {
      load(await game.adapter.decode(game.opts, $('facelets').value), null);
    } catch (e) {
      showError(e);
    }
  };
  // How the def page's solve button solves: optimally, or in phases (def solve --phases auto).
  $('def-phases').onchange = () => { defPuzzle.phases = $('def-phases').value; };
  $('def-file').onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      await defPuzzle.load(file.name, await file.text());
      $('def-name').textContent = file.name;
      game.opts = readOptions();
      buildOptions();
      await newPuzzle();
    } catch (err) {
      showError(err);
    }
  };
  $('session').onchange = () => { sessions.select($('session').value); renderSessions(); };
  $('session-new').onclick = () => { sessions.create(); renderSessions(); };
  $('session-clear').onclick = () => {
    if (sessions.solves.length && !window.confirm(`Delete the ${plural(sessions.solves.length, 'solve')} of ${sessions.current}?`)) return;
    sessions.clear();
    renderSessions();
  };
  document.addEventListener('keydown', onKey);
}
