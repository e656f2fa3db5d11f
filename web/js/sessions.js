// Timer sessions: solves kept in the browser's local storage, their statistics as speedcubers
// count them (WCA regulation 9f: an average of n drops the best and the worst 5 % of times, at
// least one each, and means the rest; a DNF counts as the slowest and two DNFs in an ao5 make
// it DNF), and a CSV export.
//
// A solve: { puzzle, ms, penalty: '' | '+2' | 'DNF', moves, seed, date (ISO) }.

const KEY = 'permuzzle-sessions';

// The time a solve counts for (ms), Infinity for a DNF.
export function result(solve) {
  if (solve.penalty === 'DNF') return Infinity;
  return solve.ms + (solve.penalty === '+2' ? 2000 : 0);
}

// The average of the last n solves (ms; Infinity = DNF), or null with fewer than n.
export function averageOf(solves, n) {
  if (solves.length < n) return null;
  const times = solves.slice(-n).map(result).sort((a, b) => a - b);
  const trim = Math.max(1, Math.ceil(n * 0.05));
  const kept = times.slice(trim, n - trim);
  if (kept.some((t) => t === Infinity)) return Infinity;
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

// Mean of every solve (a DNF makes it DNF), or null when empty.
export function mean(solves) {
  if (!solves.length) return null;
  const times = solves.map(result);
  if (times.some((t) => t === Infinity)) return Infinity;
  return times.reduce((a, b) => a + b, 0) / times.length;
}

export function best(solves) {
  if (!solves.length) return null;
  return Math.min(...solves.map(result));
}

// Seconds with two decimals, or DNF / – (no value).
export function formatTime(ms) {
  if (ms === null || ms === undefined) return '–';
  if (ms === Infinity) return 'DNF';
  return (ms / 1000).toFixed(2);
}

export function stats(solves) {
  return {
    count: solves.length,
    best: best(solves),
    mean: mean(solves),
    ao5: averageOf(solves, 5),
    ao12: averageOf(solves, 12),
  };
}

const csvField = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

export function toCsv(solves) {
  const rows = [['n', 'date', 'puzzle', 'seed', 'time_s', 'penalty', 'result_s', 'moves']];
  solves.forEach((s, i) => {
    const r = result(s);
    rows.push([i + 1, s.date, s.puzzle, s.seed ?? '', (s.ms / 1000).toFixed(3), s.penalty || '',
      r === Infinity ? 'DNF' : (r / 1000).toFixed(3), s.moves]);
  });
  return `${rows.map((r) => r.map(csvField).join(',')).join('\n')}\n`;
}

// The sessions store: { current: name, sessions: { name: [solve, ...] } } in local storage.
// Where storage is off (a browser setting: reading localStorage throws), sessions last until
// the page is closed.
export function browserStorage() {
  try {
    const s = globalThis.localStorage;
    s.getItem(KEY);
    return s;
  } catch {
    const memory = new Map();
    return { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => memory.set(k, v) };
  }
}

export class Sessions {
  constructor(storage = browserStorage()) {
    this.storage = storage;
    let data = null;
    try { data = JSON.parse(storage.getItem(KEY)); } catch { data = null; }
    if (!data || typeof data !== 'object' || !data.sessions || typeof data.sessions !== 'object') {
      data = { current: 'Session 1', sessions: { 'Session 1': [] } };
    }
    if (!data.sessions[data.current]) data.sessions[data.current] = [];
    this.data = data;
  }

  save() {
    try { this.storage.setItem(KEY, JSON.stringify(this.data)); } catch { /* storage full or off */ }
  }

  get names() { return Object.keys(this.data.sessions); }
  get current() { return this.data.current; }
  get solves() { return this.data.sessions[this.data.current]; }

  select(name) {
    if (!this.data.sessions[name]) this.data.sessions[name] = [];
    this.data.current = name;
    this.save();
  }

  create() {
    let n = this.names.length + 1;
    while (this.data.sessions[`Session ${n}`]) n += 1;
    this.select(`Session ${n}`);
    return this.current;
  }

  add(solve) {
    this.solves.push(solve);
    this.save();
  }

  clear() {
    this.data.sessions[this.data.current] = [];
    this.save();
  }
}
