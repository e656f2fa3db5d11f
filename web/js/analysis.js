// The analysis page: a whole-graph BFS as a job (progress, cancel), its positions per distance as
// a bar chart, God's number, and the antipodes as links that open them on the board.
import { job, describeError } from './api.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

const svgEl = (tag, attrs, text) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

// 1 234 567 -> "1.2M": short labels for the y axis.
function short(x) {
  if (x >= 1e9) return `${+(x / 1e9).toPrecision(3)}G`;
  if (x >= 1e6) return `${+(x / 1e6).toPrecision(3)}M`;
  if (x >= 1e3) return `${+(x / 1e3).toPrecision(3)}k`;
  return String(+x.toPrecision(3));
}

// Bars of positions per distance (a log scale when the counts span many orders of magnitude),
// with a y axis of position counts and an x axis of distances (moves from the goal).
function chart(histogram) {
  const w = 680;
  const h = 240;
  const left = 52; // room for the y axis' values
  const top = 18;
  const bottom = 36;
  const max = Math.max(...histogram);
  const log = max / Math.max(1, Math.min(...histogram.filter((x) => x > 0))) > 1000;
  const top10 = Math.ceil(Math.log10(max + 1));
  const scale = (x) => (log ? Math.log10(x + 1) / top10 : x / max);
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h + top + bottom}`, width: w });
  const y = (fraction) => top + h - fraction * h;
  // The y axis: decades on a log scale, else five even steps.
  const ticks = log ? Array.from({ length: top10 + 1 }, (_, k) => 10 ** k)
    : Array.from({ length: 5 }, (_, k) => (max * (k + 1)) / 5).concat([0]);
  for (const t of ticks) {
    const fy = y(log ? Math.log10(t + 1) / top10 : t / max);
    svg.append(svgEl('line', { x1: left, x2: w, y1: fy, y2: fy, class: 'grid' }));
    svg.append(svgEl('text', { x: left - 4, y: fy + 4, 'text-anchor': 'end', class: 'axis' }, short(t)));
  }
  const bw = (w - left) / histogram.length;
  histogram.forEach((x, d) => {
    const bh = scale(x) * h;
    const bar = svgEl('rect', { x: left + d * bw + 1, y: top + h - bh, width: Math.max(1, bw - 2), height: bh, fill: '#2a6ebb' });
    bar.append(svgEl('title', {}, `distance ${d}: ${x.toLocaleString('en')} positions`));
    svg.append(bar);
    if (histogram.length <= 40 || d % 5 === 0) {
      svg.append(svgEl('text', { x: left + d * bw + bw / 2, y: top + h + 14, 'text-anchor': 'middle', class: 'axis' }, String(d)));
    }
  });
  svg.append(svgEl('line', { x1: left, x2: left, y1: top, y2: top + h, stroke: '#444' }));
  svg.append(svgEl('line', { x1: left, x2: w, y1: top + h, y2: top + h, stroke: '#444' }));
  svg.append(svgEl('text', { x: left, y: 11, class: 'axis' }, log ? 'positions (log scale)' : 'positions'));
  svg.append(svgEl('text', { x: (left + w) / 2, y: top + h + 32, 'text-anchor': 'middle', class: 'axis' }, 'distance from the goal (moves)'));
  return svg;
}

// The request and how to read each family's answer.
const KINDS = {
  sliding: {
    verb: 'bfs',
    params: (size) => ({ size, antipodes: 10 }),
    read: (out, size) => ({
      histogram: out.histogram, god: out.max_distance, states: out.states,
      antipodes: (out.antipodes || []).map((a) => ({ text: a.join(' '), link: `#play/sliding?size=${size}&pos=${a.join('.')}` })),
      count: out.antipodes_count,
    }),
  },
  loopover: {
    verb: 'bfs',
    params: (size) => ({ size }),
    read: (out, size) => ({
      histogram: out.histogram, god: out.max_distance, states: out.states,
      antipodes: (out.sample_antipodes || []).map((a) => ({ text: a, link: `#play/loopover?size=${size}&pos=${a.split(/\s+/).join('.')}` })),
      count: out.antipodes_count,
    }),
  },
  hanoi: {
    verb: 'graph',
    params: (size) => ({ disks: Number(size.split('x')[0]), pegs: Number(size.split('x')[1] || 3) }),
    read: (out) => ({
      histogram: out.per_distance, god: out.eccentricity, states: out.positions,
      antipodes: (out.farthest || []).slice(0, 10).map((a) => {
        const towers = JSON.parse(a);
        return { text: a, link: `#play/hanoi?disks=${out.disks}&pegs=${out.pegs}&pos=${towers.map((t) => t.join('.')).join('_')}` };
      }),
      count: out.farthest_count,
    }),
  },
};

let running = null;

async function runBfs() {
  const family = $('bfs-puzzle').value;
  const size = $('bfs-size').value.trim();
  const kind = KINDS[family];
  $('bfs-error').textContent = '';
  $('bfs-summary').textContent = '';
  $('bfs-chart').replaceChildren();
  $('bfs-antipodes').replaceChildren();
  $('bfs-status').textContent = 'Starting…';
  $('bfs-progress').hidden = false;
  $('bfs-progress').removeAttribute('value');
  $('bfs-run').disabled = true;
  try {
    running = await job(family, kind.verb, kind.params(size), (p) => {
      if (p.total) {
        $('bfs-progress').max = p.total;
        $('bfs-progress').value = p.done;
      }
      $('bfs-status').textContent = [p.phase, p.message].filter((x) => x).join(': ');
    });
    $('bfs-cancel').disabled = false;
    $('bfs-status').textContent = 'Running…';
    const out = await running.result;
    const r = kind.read(out, size);
    $('bfs-status').textContent = 'Done.';
    $('bfs-summary').textContent = `${Number(r.states).toLocaleString('en')} positions; God's number ${r.god}`
      + `${r.count !== undefined ? `; ${Number(r.count).toLocaleString('en')} antipodes` : ''}.`;
    $('bfs-chart').append(chart(r.histogram));
    for (const a of r.antipodes) {
      const li = document.createElement('li');
      const link = document.createElement('a');
      link.href = a.link;
      link.textContent = a.text;
      link.title = 'Open on the board';
      li.append(link);
      $('bfs-antipodes').append(li);
    }
  } catch (e) {
    $('bfs-status').textContent = e.kind === 'cancelled' ? 'Cancelled.' : 'Failed.';
    // The engine names the option as the CLI does (--size); the page calls it Size.
    if (e.kind !== 'cancelled') $('bfs-error').textContent = describeError(e).replace(/--size\b/g, 'Size');
  } finally {
    running = null;
    $('bfs-progress').hidden = true;
    $('bfs-run').disabled = false;
    $('bfs-cancel').disabled = true;
  }
}

export function initAnalysis() {
  $('bfs-run').onclick = runBfs;
  $('bfs-cancel').onclick = async () => {
    if (!running) return;
    $('bfs-status').textContent = 'Cancelling…';
    await running.cancel();
  };
  $('bfs-puzzle').onchange = () => {
    $('bfs-size').value = { sliding: '3x3', loopover: '3x3', hanoi: '8x3' }[$('bfs-puzzle').value];
    $('bfs-size').title = $('bfs-puzzle').value === 'hanoi' ? 'DISKSxPEGS' : 'ROWSxCOLS';
  };
}
