// Timer statistics (web/js/sessions.js) against averages worked out by hand with the WCA's rule
// (regulation 9f: an ao5/ao12 drops the best and the worst time and means the rest; a DNF is the
// worst, two make the average DNF).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { averageOf, mean, best, stats, toCsv, formatTime, Sessions } from '../js/sessions.js';

const solve = (s, penalty = '') => ({ puzzle: 'cube', ms: s * 1000, penalty, moves: 20, seed: 1, date: '2026-11-25T00:00:00.000Z' });

test('ao5, ao12, mean and best as speedcubers count them', () => {
  const five = [12.34, 10.01, 15.5, 11.2, 13.0].map((s) => solve(s));
  // Drop 10.01 and 15.50: (12.34 + 11.20 + 13.00) / 3 = 12.18
  assert.equal(formatTime(averageOf(five, 5)), '12.18');
  assert.equal(averageOf(five, 12), null);
  assert.equal(formatTime(best(five)), '10.01');
  assert.equal(formatTime(mean(five)), '12.41');
  // A +2 counts 2 s more; one DNF is dropped as the worst; two make the ao5 DNF.
  const plusTwo = [...five.slice(0, 4), solve(9, '+2')];  // 11.00 counted
  assert.equal(formatTime(averageOf(plusTwo, 5)), formatTime(((12.34 + 11.2 + 11.0) / 3) * 1000));
  const oneDnf = [...five.slice(0, 4), solve(1, 'DNF')];
  assert.equal(formatTime(averageOf(oneDnf, 5)), formatTime(((12.34 + 15.5 + 11.2) / 3) * 1000));
  assert.equal(formatTime(averageOf([...oneDnf.slice(1), solve(2, 'DNF')], 5)), 'DNF');
  assert.equal(formatTime(mean(oneDnf)), 'DNF');
  // ao12 of 1..12 s: drop 1 and 12, mean of 2..11 = 6.5; only the last 12 count.
  const twelve = [99, ...Array.from({ length: 12 }, (_, i) => i + 1)].map((s) => solve(s));
  assert.equal(formatTime(stats(twelve).ao12), '6.50');
  assert.equal(formatTime(stats(twelve).ao5), '10.00'); // 8..12: drop 8 and 12
});

test('sessions kept in a storage, exported as CSV', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const a = new Sessions(storage);
  a.add(solve(10));
  a.create();
  a.add(solve(8, '+2'));
  const b = new Sessions(storage); // as after a reload
  assert.deepEqual(b.names, ['Session 1', 'Session 2']);
  assert.equal(b.current, 'Session 2');
  assert.equal(b.solves.length, 1);
  assert.equal(toCsv(b.solves), 'n,date,puzzle,seed,time_s,penalty,result_s,moves\n'
    + '1,2026-11-25T00:00:00.000Z,cube,1,8.000,+2,10.000,20\n');
  b.select('Session 1');
  assert.equal(new Sessions(storage).solves[0].ms, 10000);
  b.clear();
  assert.equal(new Sessions(storage).solves.length, 0);
  // A damaged store starts afresh rather than failing.
  store.set('permuzzle-sessions', '{not json');
  assert.deepEqual(new Sessions(storage).names, ['Session 1']);
});
