// The definition-file puzzle (web/js/defpuzzle.js) against the `def` commands' interface (names
// and JSON fields of issue 11: def info/apply/random/solve), with fetch stubbed: which requests
// the page sends and how it reads the answers. The engine's own def tests check the answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defPuzzle } from '../js/defpuzzle.js';

const FILE = 'Name Two\nSet PIECES 2 1\nSolved\nPIECES\n1 2\nEnd\nMove X\nPIECES\n2 1\nEnd\n';
const SCRAMBLE = 'Scramble random_5\nPIECES\n2 1\nEnd\n';
const requests = [];

globalThis.fetch = async (url, init) => {
  const body = init && init.body ? JSON.parse(init.body) : null;
  requests.push({ url, body });
  const verb = url.split('/').pop().split('?')[0];
  const answers = {
    info: { name: 'Two', sets: [{ name: 'PIECES', pieces: 2, orientations: 1 }],
      moves: [{ name: 'X', order: 2 }], positions: '2', structure: 'C2' },
    random: { state: { PIECES: { pieces: [1, 0], orientation: null } }, scramble: SCRAMBLE,
      solved: false, seed: 5 },
    apply: { state: { PIECES: { pieces: [0, 1], orientation: null } },
      scramble: 'Scramble moves\nPIECES\n1 2\nEnd\n', solved: true, moves: ['X'] },
    solve: { solutions: [{ name: 'moves', moves: ['X'], length: 1, optimal: true, verified: true }] },
  };
  return new Response(JSON.stringify(answers[verb]), { status: 200 });
};

// The def commands as GET /api/v1/commands lists them (the file is a positional input-file;
// `def solve` has a second one, --scramble).
defPuzzle.commands = ['info', 'apply', 'random', 'solve'].map((verb) => ({
  family: 'def',
  verb,
  params: [
    { name: 'file', type: 'input-file', positional: true },
    ...(verb === 'solve' ? [{ name: 'scramble', type: 'input-file', positional: false }] : []),
  ],
}));

test('a definition file: info, scramble, a move, a solve', async () => {
  await defPuzzle.load('two.tws', FILE);
  assert.deepEqual(requests[0], { url: '/api/v1/def/info', body: { file: { name: 'two.tws', text: FILE } } });
  assert.deepEqual(defPuzzle.buttons(), ['X']);

  const scrambled = await defPuzzle.scramble({}, 5);
  assert.deepEqual(requests[1].body, { file: { name: 'two.tws', text: FILE }, seed: 5 });
  assert.equal(scrambled.text, SCRAMBLE);
  assert.equal(defPuzzle.isSolved(scrambled), false);

  const moved = await defPuzzle.apply(scrambled, 'X');
  assert.deepEqual(requests[2].body, { file: { name: 'two.tws', text: FILE }, moves: 'X', state: SCRAMBLE });
  assert.equal(defPuzzle.isSolved(moved), true);

  const solution = await defPuzzle.solve(scrambled);
  assert.equal(requests[3].url, '/api/v1/def/solve');
  assert.deepEqual(requests[3].body, { file: { name: 'two.tws', text: FILE }, state: SCRAMBLE });
  assert.deepEqual(solution, { moves: ['X'], optimal: true, length: 1 });

  // From solved: a move from the solved pattern sends no state.
  await defPuzzle.apply(defPuzzle.solved(), 'X');
  assert.deepEqual(requests[4].body, { file: { name: 'two.tws', text: FILE }, moves: 'X' });
});
