// The analysis page: a whole-graph BFS as a job (progress, cancel), its positions per distance as
// a bar chart, God's number, and the antipodes as links that open them on the board.
import { job, describeError } from './api.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

// Bars of positions per distance (a log scale when the counts span many orders of magnitude).
function chart(histogram) {
  const w = 640;
  const h = 240;
  const pad = 30;
  const max = Math.max(...histogram);
  const log = max / Math.max(1, Math.min(...histogram.filter((x) => x > 0))) > 1000;
  const scale = (x) => (log ? Math.log10(x + 1) / Math.log10(max + 1) : x / max);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h + pad}`);
  svg.setAttribute('width', w);
  const bw = (w - pad) / histogram.length;
  histogram.forEach((x, d) => {
    const bar = document.createElementNS(SVG, 'rect');
    const bh = scale(x) * (h - 10);
    bar.setAttribute('x', pad + d * bw + 1);
    bar.setAttribute('y', h - bh);
    bar.setAttribute('width', Math.max(1, bw - 2));
    bar.setAttribute('height', bh);
    bar.setAttribute('fill', '#2a6ebb');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `distance ${d}: ${x.toLocaleString('en')} positions`;
    bar.append(title);
    svg.append(bar);
    if (histogram.length <= 40 || d % 5 === 0) {
      const label = document.createElementNS(SVG, 'text');
      label.setAttribute('x', pad + d * bw + bw / 2);
      label.setAttribute('y', h + 16);
      label.setAttribute('font-size', '11');
      label.setAttribute('text-anchor', 'middle');
      label.textContent = String(d);
      svg.append(label);
    }
  });
  const axis = document.createElementNS(SVG, 'text');
  axis.setAttribute('x', 2);
  axis.setAttribute('y', 12);
  axis.setAttribute('font-size', '11');
  axis.textContent = log ? 'positions (log scale)' : 'positions';
  svg.append(axis);
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
    if (e.kind !== 'cancelled') $('bfs-error').textContent = describeError(e);
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
