// The groups page: generators in cycle notation -> order, structure, orbits, membership, a
// word for an element, and the Cayley graph of a small group (drawn by the engine as SVG).
import { call, describeError } from './api.js';

const $ = (id) => document.getElementById(id);

const PRESETS = {
  'S3 = <(1,2,3), (1,2)>': '(1,2,3)\n(1,2)',
  "Rubik's cube (48 facelets, GAP's numbering)": [
    'U=(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)',
    'L=(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)',
    'F=(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)',
    'R=(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)',
    'B=(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)',
    'D=(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)',
  ].join('\n'),
  'Dihedral group of the square': '(1,2,3,4)\n(1,3)',
  'Mathieu group M11': '(1,2,3,4,5,6,7,8,9,10,11)\n(3,7,11,8)(4,10,5,6)',
  'A5 on 5 points': '(1,2,3,4,5)\n(1,2,3)',
};

function generators() {
  return $('generators').value.split(/\n|;/).map((s) => s.trim()).filter((s) => s);
}

// A result object as "key: value" lines (long lists shortened).
function format(result) {
  return Object.entries(result).map(([k, v]) => {
    let text = typeof v === 'string' ? v : JSON.stringify(v);
    if (text.length > 400) text = `${text.slice(0, 400)}…`;
    return `${k}: ${text}`;
  }).join('\n');
}

async function run(verb, extra = {}) {
  $('group-error').textContent = '';
  $('group-result').textContent = 'Computing…';
  $('group-graph').replaceChildren();
  try {
    const out = await call('group', verb, { generators: generators(), ...extra });
    if (out.svg) {
      const img = document.createElement('img');
      img.alt = 'Cayley graph';
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(out.svg)}`;
      $('group-graph').append(img);
      delete out.svg;
      delete out.dot;
    }
    $('group-result').textContent = format(out);
    return out;
  } catch (e) {
    $('group-result').textContent = '';
    $('group-error').textContent = describeError(e);
    return null;
  }
}

export function initGroups() {
  const preset = $('group-preset');
  for (const name of Object.keys(PRESETS)) preset.add(new Option(name, name));
  preset.onchange = () => { $('generators').value = PRESETS[preset.value]; };
  $('generators').value = PRESETS[preset.value];
  $('group-order').onclick = () => run('order');
  $('group-describe').onclick = () => run('describe');
  $('group-orbits').onclick = () => run('orbits');
  $('group-cayley').onclick = () => run('cayley-graph', { svg: '-', undirected: true, limit: 200 });
  $('group-contains').onclick = () => run('contains', { element: $('group-element').value.trim() });
  $('group-word').onclick = () => run('word', { element: $('group-element').value.trim() });
}
