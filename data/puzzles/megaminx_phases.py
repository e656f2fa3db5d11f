#!/usr/bin/env python3
# Writes megaminx.phases (run it in data/puzzles/, after geometry.py wrote megaminx.tws): the
# phases `permuzzle def solve megaminx.tws --phases megaminx.phases` solves the megaminx
# through (docs/def-phases.md, "Measured").
#
# 1. Block building by faces (the block chain of docs/def-phases.md): the faces in use shrink
#    step by step; a step stops using some faces and places the pieces that none of the faces
#    still in use touch, with the faces in use before the step (the faces still in use always
#    form a connected region). `chain` below picks the steps (1 to 3 faces each) that keep the
#    largest phase smallest, then the fewest phases, down to the region {U, R, F}; one more
#    step leaves {U, R}.
# 2. R's four edges off U with U, R and an edge flip (corners ignored): U and R alone never
#    flip an edge.
# 3. R's three corners off U with U and sequences that keep every other piece off U (found by
#    `find_sequences`: short words in U, R, F whose net effect moves nothing else).
# 4. The last layer (U's 5 edges and 5 corners) with U and sequences that keep every piece off U:
#    4,665,600 positions (5!/2 * 2^4 * 5!/2 * 3^4), one exact table.
# That every phase can always be finished is checked, not assumed: `permuzzle def info
# megaminx.tws --phases megaminx.phases` gives each phase's size, which is the count of
# arrangements of its new pieces in the slots its moves touch (tests/def_megaminx_test.cpp),
# so the phase's moves reach every position its new pieces can be in. The sequence search
# takes a few seconds.
import itertools, functools
from math import prod

def read_moves(path):
    # Move blocks of a definition file: {name: {set: (perm 0-based, orientation by slot)}}
    lines = [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
    sets, moves, i = {}, {}, 0
    while i < len(lines):
        t = lines[i]
        if t[0] == "Set": sets[t[1]] = (int(t[2]), int(t[3])); i += 1; continue
        if t[0] not in ("Move", "Solved"): i += 1; continue
        name, eff = (t[1] if t[0] == "Move" else None), {}
        i += 1
        while lines[i][0] != "End":
            s = lines[i][0]; perm = [int(x) - 1 for x in lines[i + 1]]; i += 2
            ori = [0] * len(perm)
            if sets[s][1] > 1 and lines[i][0] not in sets and lines[i][0] != "End":
                by_piece = [int(x) for x in lines[i]]; i += 1
                ori = [by_piece[perm[k]] for k in range(len(perm))]
            eff[s] = (perm, ori)
        i += 1
        if name: moves[name] = eff
    return sets, moves

sets, moves = read_moves("megaminx.tws")
faces = list(moves)
EDGES, CORNERS = "EDGES", "CORNERS"
# The faces of the piece in each slot: the moves that move that slot.
def faces_of(s):
    return [frozenset(f for f in faces if moves[f][s][0][i] != i) for i in range(sets[s][0])]
piece_faces = {s: faces_of(s) for s in sets}
adjacent = {f: {g for g in faces if g != f and frozenset((f, g)) in piece_faces[EDGES]}
            for f in faces}

# ---- state algebra (state form: new.perm[i] = s.perm[m.perm[i]]) ----
def identity(): return {s: (list(range(n)), [0] * n) for s, (n, o) in sets.items()}
def apply(st, m):
    out = {}
    for s, (n, o) in sets.items():
        p, r = st[s]; mp, mr = m[s] if s in m else (list(range(n)), [0] * n)
        out[s] = ([p[mp[i]] for i in range(n)], [(r[mp[i]] + mr[i]) % o for i in range(n)])
    return out
POWER = {1: "", 2: "2", 3: "2'", 4: "'"}
TURN = {(f, k): functools.reduce(lambda st, _: apply(st, moves[f]), range(k), identity())
        for f in faces for k in (1, 2, 3, 4)}
def effect(word):
    st = identity()
    for t in word: st = apply(st, TURN[t])
    return st
def moved(st): return {s: [i for i in range(sets[s][0]) if st[s][0][i] != i or st[s][1][i]]
                       for s in sets}
def order(st):
    x, k = st, 1
    while any(moved(x).values()): x = apply(x, st); k += 1
    return k
def text(word): return " ".join(f + POWER[k] for f, k in word)

# ---- 1. the block chain ----
def connected(region):
    region = set(region); seen = {min(region)}; todo = list(seen)
    while todo:
        for g in adjacent[todo.pop()] & region:
            if g not in seen: seen.add(g); todo.append(g)
    return seen == region
def touched(region, s): return [i for i, fs in enumerate(piece_faces[s]) if fs & region]
def arrangements(region, new):
    # of the new pieces (distinct, oriented) in the slots the faces of region touch
    size = 1
    for s, (n, o) in sets.items():
        m = len(touched(region, s)); k = len(new[s])
        size *= prod(range(m - k + 1, m + 1)) * o ** k
    return size
def step(region, rest):
    # (phase size, new pieces by set) when the faces in use go from region to rest
    new = {s: [i for i in touched(region, s) if not piece_faces[s][i] & rest] for s in sets}
    return arrangements(region, new), new
def chain(target):
    @functools.lru_cache(None)
    def best(region):
        if region == target: return (0, 0, ())
        found = None
        for k in (1, 2, 3):
            for removed in itertools.combinations(sorted(region - target), k):
                rest = region - set(removed)
                if not connected(rest): continue
                size, _ = step(region, rest)
                sub = best(rest)
                cand = (max(size, sub[0]), sub[1] + 1, (rest,) + sub[2])
                if found is None or cand[:2] < found[:2]: found = cand
        return found
    return best(frozenset(faces))[2]

# ---- sequences: words in a few faces whose net effect moves only the slots allowed ----
def find_sequences(word_faces, free, depth):
    # Meet in the middle: two words a, b of at most `depth` turns that leave the same pieces in
    # every slot outside `free` give b^-1 a, which moves nothing outside `free`.
    words, layer = {(): identity()}, {(): identity()}
    for _ in range(depth):
        nxt = {}
        for w, st in layer.items():
            for f in word_faces:
                if w and w[-1][0] == f: continue
                for k in (1, 2, 3, 4): nxt[w + ((f, k),)] = apply(st, TURN[(f, k)])
        words.update(nxt); layer = nxt
    kept = {s: [i for i in range(sets[s][0]) if i not in free[s]] for s in sets}
    groups = {}
    for w, st in words.items():
        key = tuple((st[s][0][i], st[s][1][i]) for s in sets for i in kept[s])
        groups.setdefault(key, []).append(w)
    found = {}
    for ws in groups.values():
        ws.sort(key=len)
        for a in ws[:4]:
            for b in ws[:4]:
                w = simplify(tuple((f, 5 - k) for f, k in reversed(b)) + a)
                if not w: continue
                key = str(effect(w))
                if key not in found or len(w) < len(found[key]): found[key] = w
    return sorted(found.values(), key=lambda w: (len(w), text(w)))
def simplify(w):
    w = list(w); i = 0
    while i < len(w) - 1:
        if w[i][0] == w[i + 1][0]:
            k = (w[i][1] + w[i + 1][1]) % 5
            w[i:i + 2] = [(w[i][0], k)] if k else []; i = max(i - 1, 0)
        else: i += 1
    return tuple(w)
def word_of(seq):
    # "R U2'" -> (("R", 1), ("U", 3))
    word = []
    for t in seq.split():
        face = t.rstrip("2'")
        word.append((face, {"": 1, "2": 2, "2'": 3, "'": 4}[t[len(face):]]))
    return tuple(word)
def check_sequence(word, free):
    # the net effect moves only `free` slots; its order is at most 12 (MAX_SEQUENCE_ORDER)
    st = effect(word)
    assert all(set(v) <= set(free[s]) for s, v in moved(st).items()), text(word)
    assert order(st) <= 12, text(word)

# ---- the phase file ----
def pattern(new):
    # the new pieces numbered 1.. (orientation solved); every other piece one identical piece
    # whose orientation does not matter (the pieces placed before: the phase never moves them)
    out = []
    for s, (n, o) in sets.items():
        k = len(new[s])
        out.append(s)
        out.append(" ".join(str(new[s].index(i) + 1) if i in new[s] else str(k + 1)
                            for i in range(n)))
        if o > 1: out.append(" ".join("0" if i in new[s] else "?" for i in range(n)))
    return out
def moves_line(region):
    return "Moves " + " ".join(f + POWER[k] for f in faces if f in region for k in (1, 2, 3, 4))
def piece_names(new):
    return ", ".join("-".join(sorted(piece_faces[s][i])) for s in sets for i in new[s])

out = ["# Written by megaminx_phases.py (run it in data/puzzles/): phases for megaminx.tws.",
       "# Faces: U on top, F L BL BR R around it, FL DL B DR FR below them, D at the bottom",
       "# (megaminx.tws). Each phase's size (`permuzzle def info megaminx.tws --phases",
       "# megaminx.phases`) is the count of arrangements of its new pieces: every phase can",
       "# always be finished with its moves. Shorter solutions (docs/def-phases.md):",
       "# def solve ... --phases megaminx.phases --beam 32 --branch 8 --slack 1 --inverse", ""]
region, n = frozenset(faces), 0
target = frozenset({"U", "R", "F"})
# A step above SPLIT_POSITIONS (its exact table would not fit the 32 MiB a phase gets, and its
# search with smaller tables took seconds on some positions) leaves one of its corners to a
# phase of its own: the faces still in use after the step (they never touch it) and a few
# sequences, found by find_sequences in the face the step stops using and two faces next to
# it, that move that corner's slot and only slots the remaining faces touch.
SPLIT_POSITIONS = 100_000_000
def keyhole(region, rest, corner):
    (face,) = region - rest
    near = sorted(g for g in adjacent[face] & rest)
    free = {s: touched(rest, s) for s in sets}
    free[CORNERS] = free[CORNERS] + [corner]
    for a, b in itertools.combinations(near, 2):
        if b not in adjacent[a]: continue
        found = [w for w in find_sequences([face, a, b], free, 3)
                 if corner in moved(effect(w))[CORNERS] and order(effect(w)) <= 12]
        if found: return found[:1]  # its powers are search moves too
    return []
for rest in chain(target) + (frozenset({"U", "R"}),):
    size, new = step(region, rest)
    n += 1
    later, sequences = None, []
    if size > SPLIT_POSITIONS:
        for c in new[CORNERS]:
            sequences = keyhole(region, rest, c)
            if sequences: later = c; break
        assert later is not None
        new = {EDGES: new[EDGES], CORNERS: [c for c in new[CORNERS] if c != later]}
        size = arrangements(region, new)
    out += [f"# Step {n}: stop using {' '.join(sorted(region - rest))}; place "
            f"{piece_names(new)} with {' '.join(sorted(region))} ({size:,} positions).",
            f"Phase faces-{n}", moves_line(region)] + pattern(new) + ["End", ""]
    if later is not None:
        out += [f"# Then {piece_names({EDGES: [], CORNERS: [later]})} with "
                f"{' '.join(sorted(rest))} and sequences that move only it and their pieces.",
                f"Phase faces-{n}-corner", moves_line(rest)]
        free = {s: touched(rest, s) + ([later] if s == CORNERS else []) for s in sets}
        for i, w in enumerate(sequences):
            check_sequence(w, free)
            out.append(f"Sequence {'k' + 'abcdefghijklmnopqrstuvwxyz'[i]} {text(w)}")
        out += pattern({EDGES: [], CORNERS: [later]}) + ["End", ""]
    region = rest
# 2. R's edges off U.
r_edges = [i for i, fs in enumerate(piece_faces[EDGES]) if "R" in fs and "U" not in fs]
r_corners = [i for i, fs in enumerate(piece_faces[CORNERS]) if "R" in fs and "U" not in fs]
u_slots = {s: [i for i, fs in enumerate(piece_faces[s]) if "U" in fs] for s in sets}
# U and R alone never change an edge's orientation (as on the 3x3x3), so the phase also has a
# sequence that flips two of U's edges and keeps every piece off U.
out += [f"# Then the edges {piece_names({EDGES: r_edges, CORNERS: []})} with U, R and an edge",
        "# flip that keeps every piece off U (U and R alone never flip an edge; corners ignored).",
        "Phase R-edges", moves_line({"U", "R"})]
check_sequence(word_of("F R U R' U' F'"), u_slots)
out.append("Sequence flip F R U R' U' F'")
out += pattern({EDGES: r_edges, CORNERS: []}) + ["End", ""]
# 3. R's corners off U: sequences moving only U's pieces and those corners.
def pick_sequences(free, need, max_length):
    # The words find_sequences gives (in U, R, F, up to 10 turns) of at most max_length turns
    # and order at most 12 that move a slot of `need`, one per net effect up to conjugation by
    # U and inverses (the phase has U and every power: those would add nothing; one that differs
    # by a U turn before or after is kept, it saves that turn).
    found = find_sequences(["U", "R", "F"], free, 5)
    u = [identity()] + [TURN[("U", k)] for k in (1, 2, 3, 4)]
    seen, kept = set(), []
    for w in found:
        if len(w) > max_length or all(f == "U" for f, _ in w): continue
        st = effect(w); o = order(st)
        if o > 12 or not any(set(moved(st)[s]) & set(need.get(s, [])) for s in sets): continue
        inverse = functools.reduce(lambda x, _: apply(x, st), range(o - 2), st)
        keys = {str(apply(apply(u[a], x), u[(5 - a) % 5])) for x in (st, inverse)
                for a in range(5)}
        if keys & seen: continue
        seen |= keys; kept.append(w)
    return kept
def sequence_name(prefix, i):
    # letters only: a name ending in a digit would clash with another's power (x1 and x12)
    return prefix + "abcdefghijklmnopqrstuvwxyz"[i // 26] + "abcdefghijklmnopqrstuvwxyz"[i % 26]
free = {EDGES: u_slots[EDGES], CORNERS: u_slots[CORNERS] + r_corners}
r_corner_sequences = pick_sequences(free, {CORNERS: r_corners}, 8)
out += [f"# Then the corners {piece_names({EDGES: [], CORNERS: r_corners})} with U and "
        f"{len(r_corner_sequences)} sequences",
        "# of at most 8 turns that move only them and U's pieces (found by find_sequences).",
        "Phase R-corners", moves_line({"U"})]
for i, w in enumerate(r_corner_sequences):
    check_sequence(w, free)
    out.append(f"Sequence {sequence_name('c', i)} {text(w)}")
out += pattern({EDGES: [], CORNERS: r_corners}) + ["End", ""]
# 4. The last layer.
free = u_slots
ll_sequences = pick_sequences(free, u_slots, 9)
out += [f"# The last layer: U's 5 edges and 5 corners with U and {len(ll_sequences)} sequences of "
        "at most 9 turns",
        "# that move only them (found by find_sequences): 4,665,600 positions.",
        "Phase last-layer", moves_line({"U"})]
for i, w in enumerate(ll_sequences):
    check_sequence(w, free)
    out.append(f"Sequence {sequence_name('l', i)} {text(w)}")
out += ["End"]
open("megaminx.phases", "w").write("\n".join(out) + "\n")
