// The web app's entry: three pages (play, groups, analysis) behind hash routes, so that a link
// such as #play/loopover?size=4x4&pos=... opens a position.
import { initPlay, openPlay } from './play.js';
import { initGroups } from './groups.js';
import { initAnalysis } from './analysis.js';

const PAGES = ['play', 'groups', 'analysis'];

function route() {
  const hash = location.hash.replace(/^#/, '');
  const [path, query] = hash.split('?');
  const [page, sub] = path.split('/');
  const name = PAGES.includes(page) ? page : 'play';
  for (const p of PAGES) document.getElementById(`page-${p}`).hidden = p !== name;
  for (const a of document.querySelectorAll('nav a')) {
    a.classList.toggle('active', a.dataset.page === name);
  }
  if (name === 'play') openPlay(sub, query);
}

initPlay();
initGroups();
initAnalysis();
window.addEventListener('hashchange', route);
route();
