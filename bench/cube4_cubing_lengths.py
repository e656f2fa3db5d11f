#!/usr/bin/env python3
# The length of cubing.js's 4x4x4 random-state scrambles in 4x4x4-fixed-corner.tws's own moves,
# for docs/def-phases.md's comparison with `bench def-phases --cases 4x4x4`.
# Usage: one scramble a line on stdin, e.g. from node in a directory that resolves `cubing`:
#   import {randomScrambleForEvent} from "cubing/scramble";
#   for (let i = 0; i < 20; i++) console.log((await randomScrambleForEvent("444")).toString());
# cubing.js counts outer-block turns (Rw = the two R layers: one token). Here each token becomes
# the file's moves (U R F outer, u d r l f b inner; the DBL corner never moves): a turn of
# layers that include the D, L or B face is played as the opposite turn of the other layers of
# its axis (a whole-cube rotation apart), the frame followed from then on, and turns of one
# layer in a run on one axis merged. Each translation is checked on a full 4x4x4 model (every
# layer, built with geometry.py's functions): it equals the scramble up to one of the 24
# rotations.
import itertools, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
_src = open(os.path.join(HERE, "..", "data", "puzzles", "geometry.py")).read()
exec(_src[_src.index("def rot(axis"):_src.index("def move_of")])  # dot, order_stickers
exec(_src[_src.index("def rot90"):_src.index("cs, es, fs = surface(4)")])  # rot90, layer_move, surface
FACE = {'U': (1, 1), 'D': (1, -1), 'R': (0, 1), 'L': (0, -1), 'F': (2, 1), 'B': (2, -1)}
FILE = {(0, 3): 'R', (0, 1): 'r', (0, -1): 'l', (1, 3): 'U', (1, 1): 'u', (1, -1): 'd',
        (2, 3): 'F', (2, 1): 'f', (2, -1): 'b'}
def parse(tok):
    k = 1
    if tok.endswith("'"): k = -1; tok = tok[:-1]
    if tok.endswith('2'): k = 2 * (1 if k == 1 else -1); tok = tok[:-1]
    wide = tok.endswith('w'); f = tok[0]
    if tok[0] == '3': raise ValueError(tok)
    return f, wide, k
def rotmat(axis, m):  # rotation about +e_axis by m quarter turns as a function on vectors
    def f(v):
        for _ in range(m % 4):
            v = rot90(axis, 1, v)
        return v
    return f
def translate(tokens):
    Q = [(0, 1), (1, 1), (2, 1)]  # logical axis a -> physical (axis b, sign t)
    out = []  # (physical axis, value, amount about +axis)
    for tok in tokens:
        f, wide, k = parse(tok)
        a, s = FACE[f]
        layers = [3 * s] + ([s] if wide else [])
        b, t = Q[a]
        phys = [t * c for c in layers]
        m = (t * s * k) % 4
        if -3 in phys:
            phys = [v for v in (3, 1, -1, -3) if v not in phys]
            # the omitted whole-cube rotation about +e_b by m: Q <- R_m^{-1} Q
            r = rotmat(b, -m)
            newQ = []
            for (bb, tt) in Q:
                e = [0, 0, 0]; e[bb] = tt
                e2 = r(tuple(e))
                ax = [i for i in range(3) if e2[i] != 0][0]
                newQ.append((ax, e2[ax]))
            Q = newQ
            m = (-m) % 4
        for v in phys: out.append((b, v, m))
    # merge within runs of one axis
    moves = []; i = 0
    while i < len(out):
        j = i; acc = {}
        while j < len(out) and out[j][0] == out[i][0]:
            acc[out[j][1]] = (acc.get(out[j][1], 0) + out[j][2]) % 4; j += 1
        for v in (3, 1, -1):
            if acc.get(v, 0):
                amt = acc[v] if v > 0 else (-acc[v]) % 4
                moves.append(FILE[(out[i][0], v)] + {1: '', 2: '2', 3: "'"}[amt])
        i = j
    return moves
# Full model check.

cs, es, fs = surface(4)
sets = [("C", cs), ("E", es), ("Z", fs)]
def lm(axis, sign, value):
    return [layer_move(p, axis, sign, value) for _, p in sets]
MOD = [3, 1, 1]
def comp(st, mv):
    return [(tuple(sp[j] for j in mp), tuple((so[j] + mo[i]) % o for i, j in enumerate(mp)))
            for (sp, so), (mp, mo), o in zip(st, mv, MOD)]
ID = [(tuple(range(len(p))), (0,) * len(p)) for _, p in sets]
def apply_layers(st, axis, sign, value, k):
    mv = lm(axis, sign, value)
    for _ in range(k % 4): st = comp(st, mv)
    return st
def cubing_full(tokens):
    st = ID
    for tok in tokens:
        f, wide, k = parse(tok); a, s = FACE[f]
        for c in [3 * s] + ([s] if wide else []): st = apply_layers(st, a, s, c, k)
    return st
SIGN = {'U': (1, 1, 3), 'R': (0, 1, 3), 'F': (2, 1, 3), 'u': (1, 1, 1), 'd': (1, -1, -1),
        'r': (0, 1, 1), 'l': (0, -1, -1), 'f': (2, 1, 1), 'b': (2, -1, -1)}
def file_full(moves):
    st = ID
    for m in moves:
        k = 2 if m.endswith('2') else 3 if m.endswith("'") else 1
        a, s, v = SIGN[m[0]]; st = apply_layers(st, a, s, v, k)
    return st
ROTS = []  # the 24 whole-cube rotations: all four layers of each axis turned
for w in itertools.product(range(4), repeat=3):
    st = ID
    for axis, k in enumerate(w):
        for v in (3, 1, -1, -3): st = apply_layers(st, axis, 1, v, k)
    if st not in ROTS: ROTS.append(st)
assert len(ROTS) == 24
lens = []; ours = []
for line in sys.stdin:
    toks = line.split()
    if not toks: continue
    mv = translate(toks)
    A = cubing_full(toks); B = file_full(mv)
    assert any(comp(B, r) == A for r in ROTS), line
    lens.append(len(toks)); ours.append(len(mv))
print("cubing.js tokens: mean %.2f max %d; in the fixed-corner file's moves (HTM): mean %.2f max %d (%d scrambles)" % (
    sum(lens) / len(lens), max(lens), sum(ours) / len(ours), max(ours), len(lens)))
