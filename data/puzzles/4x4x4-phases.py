#!/usr/bin/env python3
# Writes 4x4x4-fixed-corner.phases (run it anywhere: about 15 s): a reduction
# method for 4x4x4-fixed-corner.tws in nine phases, each small enough for an exact table
# (at most 3,674,160 positions) and each provably finishable.
#
# The method (phase file sizes: `permuzzle def info 4x4x4-fixed-corner.tws --phases
# 4x4x4-fixed-corner.phases` prints each phase's orbit, which must equal the number written
# in the phase's comment: then every position the earlier phases leave is in that orbit):
#  1. centres-RL: the R and L centres onto the R/L faces (all moves): C(24,8) = 735,471.
#  2. centres-RL-UD: R apart from L, U/D centres onto U/D, with the moves that keep the R/L
#     face sets (outer U R F, r l, half turns of u d f b): 70 x C(16,8) = 900,900.
#  3. centres: every centre, outer U R F and the half slice turns: 70^3 = 343,000.
#  4. corners: the corners with U R F (outer turns keep the centres' faces): 3,674,160.
#  5-9. wings (the 24 edge pieces), a few per phase, with `Sequence` lines: pure wing 3-cycles
#     (commutators of a slice and face turns, conjugated) and double 3-cycles (10-move
#     commutators), which keep every corner and centre,
#     plus U (its corner 4-cycle is undone within the phase: corners are in the pattern) as a
#     set-up move. A phase places 4 wings among the n not yet placed with the cycles among
#     those n slots: n!/(n-4)! x 4 positions. The last places the 8 U-layer wings, with one
#     more sequence, a pure wing transposition (the "OLL parity" algorithm, 15 moves): wing
#     parity is independent of the corners' with identical centres, so it can be odd here.
# The centre labels of the Solved block: 1 R, 2 L, 3 U, 4 D, 5 F, 6 B (geometry.py's face_of).
#
# Model: a position maps each slot to the piece in it; a move's `perm` line p and `ori` line o
# take state s to s'[i] = s[p[i]], ori'[i] = ori[p[i]] + o[i] (the definition format's
# convention), moves of a sequence applied left to right.
import itertools, os

HERE = os.path.dirname(os.path.abspath(__file__))
TWS = os.path.join(HERE, "4x4x4-fixed-corner.tws")
OUT = os.path.join(HERE, "4x4x4-fixed-corner.phases")
ORDER = ["CORNERS", "EDGES", "CENTERS"]


def parse(fn):
    sets, moves, solved = {}, {}, {}
    lines = [l.split() for l in open(fn) if l.strip() and not l.startswith("#")]
    i = 0
    while i < len(lines):
        t = lines[i]
        if t[0] == "Set":
            sets[t[1]] = (int(t[2]), int(t[3])); i += 1
        elif t[0] in ("Solved", "Move"):
            blk = {}; head = t; i += 1
            while lines[i][0] != "End":
                s = lines[i][0]; n = sets[s][0]
                p = [int(x) - 1 for x in lines[i + 1]]
                nxt = lines[i + 2]
                if len(nxt) == n and nxt[0] not in sets and nxt[0] != "End":
                    o = [int(x) for x in nxt]; i += 3
                else:
                    o = [0] * n; i += 2
                blk[s] = (p, o)
            i += 1
            for s, (n, _) in sets.items():
                blk.setdefault(s, (list(range(n)), [0] * n))
            if head[0] == "Move": moves[head[1]] = blk
            else: solved = blk
        else:
            i += 1
    return sets, solved, moves


SETS, SOLVED, MOVES = parse(TWS)


def element(blk):
    return tuple((tuple(blk[s][0]), tuple(blk[s][1])) for s in ORDER)


ID = element({s: (list(range(SETS[s][0])), [0] * SETS[s][0]) for s in ORDER})


def compose(a, b):  # b applied after a
    out = []
    for k, s in enumerate(ORDER):
        (ap, ao), (bp, bo), o = a[k], b[k], SETS[s][1]
        out.append((tuple(ap[j] for j in bp), tuple((ao[j] + bo[i]) % o for i, j in enumerate(bp))))
    return tuple(out)


POW = {}
for n, blk in MOVES.items():
    g = element(blk)
    POW[n] = g; POW[n + "2"] = compose(g, g); POW[n + "'"] = compose(POW[n + "2"], g)


def base(m): return m.rstrip("2'")
def amount(m): return 2 if m.endswith("2") else 3 if m.endswith("'") else 1
def name(b, a): return {1: b, 2: b + "2", 3: b + "'"}[a % 4]
def inverse(w): return [name(base(m), 4 - amount(m)) for m in reversed(w)]


def merge(w):  # adjacent turns of one layer merged (they commute trivially)
    out = []
    for m in w:
        if out and base(out[-1]) == base(m):
            a = (amount(out[-1]) + amount(m)) % 4
            out.pop()
            if a: out.append(name(base(m), a))
        else:
            out.append(m)
    return out


def apply(w):
    g = ID
    for m in w: g = compose(g, POW[m])
    return g


OUTER = [m for m in POW if base(m) in "URF"]
SLICE = [m for m in POW if base(m) in "udrlfb"]


def pure_wing_cycles(g):
    """The wing cycles (each smallest slot first, in order) when g keeps every corner and
    centre slot's piece (not only its face) and moves wings only in 3-cycles, else None."""
    (cp, co), (ep, _), (zp, _) = g
    if cp != ID[0][0] or any(co) or zp != ID[2][0]: return None
    seen, cycles = set(), []
    for i in range(24):
        if ep[i] == i or i in seen: continue
        c = [i, ep[i], ep[ep[i]]]
        if ep[c[2]] != i: return None
        seen.update(c)
        cycles.append(tuple(c))
    return tuple(cycles) if cycles else None


def wing_three_cycle(g):
    """The wing 3-cycle when g is a pure one (order 3), else None."""
    c = pure_wing_cycles(g)
    return c[0] if c and len(c) == 1 else None


def words(alphabet, n):
    for L in range(1, n + 1):
        for w in itertools.product(alphabet, repeat=L):
            if all(base(w[i]) != base(w[i + 1]) for i in range(L - 1)): yield list(w)


# Step 1. Commutators [A, B] = A B A' B' with A a slice turn or two turns (one a slice) and B up
# to three outer turns: the pure wing 3-cycles among them (all 8 moves long), and the pure
# double wing 3-cycles (all 10 moves long: two 3-cycles for less than two of 8).
best = {}
double = {}
As = [[m] for m in SLICE] + [w for w in words(OUTER + SLICE, 2) if any(base(x) in "udrlfb" for x in w)]
Bs = list(words(OUTER, 3))
elems = {tuple(w): (apply(w), apply(inverse(w))) for w in As + Bs}
for a in As:
    ga, ia = elems[tuple(a)]
    for b in Bs:
        gb, ib = elems[tuple(b)]
        cycles = pure_wing_cycles(compose(compose(compose(ga, gb), ia), ib))
        if cycles is None: continue
        w = merge(a + b + inverse(a) + inverse(b))
        table, c = (best, cycles[0]) if len(cycles) == 1 else (double, cycles)
        if len(cycles) <= 2 and (c not in table or len(table[c]) > len(w)): table[c] = w

# Step 2. Conjugates m X m' by single moves, three rounds: the shortest known sequence for
# every directed wing 3-cycle (all 4,048 of them, 8 to 13 moves).
frontier = dict(best)
for _ in range(3):
    new = {}
    for c, w in frontier.items():
        for m in OUTER + SLICE:
            v = merge([m] + w + inverse([m]))
            if len(v) > 14: continue
            k = wing_three_cycle(apply(v))
            if k is not None and (k not in best or len(best[k]) > len(v)):
                best[k] = v; new[k] = v
    frontier = new
assert len(best) == 24 * 23 * 22 // 3, len(best)
# One sequence per set of three slots (its inverse is its power 2): the shorter direction.
triple = {}
for c, w in sorted(best.items()):
    k = tuple(sorted(c))
    if k not in triple or len(triple[k]) > len(w): triple[k] = w

# Step 3. The wing transposition: corners kept, centres kept up to their face.
PARITY = "r' U2 l F2 l' F2 r2 U2 r U2 r' U2 F2 r2 F2".split()
g = apply(PARITY)
CLAB = SOLVED["CENTERS"][0]
assert g[0] == ID[0] and all(CLAB[g[2][0][i]] == CLAB[i] for i in range(24))
assert [i for i in range(24) if g[1][0][i] != i] == [11, 15]  # the UF wings swapped

# Step 4. The phase file.
def numbers(xs): return " ".join(str(x) for x in xs)
ALL_OUTER = "U U2 U' R R2 R' F F2 F'"
EDGES_ANY = "EDGES\n" + numbers([1] * 24)
CORNERS_ANY = "CORNERS\n" + numbers([1] * 7) + "\n" + " ".join("?" * 7)
def centres(by_face): return "CENTERS\n" + numbers([by_face[CLAB[i] + 1] for i in range(24)])

out = ["""# 4x4x4-fixed-corner.phases: written by 4x4x4-phases.py (a reduction method; see its
# comments). Use: permuzzle def solve 4x4x4-fixed-corner.tws --scramble F --phases
# 4x4x4-fixed-corner.phases. Every phase's size (a comment below) is the number of
# arrangements of its pattern that the previous phases can leave, and `def info --phases`
# prints the same numbers for its orbits: every phase can always be finished.
"""]
out.append("# R and L centres onto the R/L faces: C(24,8) = 735,471 positions.\nPhase centres-RL\n"
           + centres({1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 2}) + "\n" + EDGES_ANY + "\n" + CORNERS_ANY + "\nEnd\n")
out.append("# R apart from L; U/D centres onto U/D: 70 x C(16,8) = 900,900.\nPhase centres-RL-UD\nMoves "
           + ALL_OUTER + " r r2 r' l l2 l' u2 d2 f2 b2\n"
           + centres({1: 1, 2: 2, 3: 3, 4: 3, 5: 4, 6: 4}) + "\n" + EDGES_ANY + "\n" + CORNERS_ANY + "\nEnd\n")
out.append("# Every centre: 70^3 = 343,000.\nPhase centres\nMoves " + ALL_OUTER
           + " u2 d2 r2 l2 f2 b2\n" + EDGES_ANY + "\n" + CORNERS_ANY + "\nEnd\n")
out.append("# The corners with U R F: 7! x 3^6 = 3,674,160.\nPhase corners\nMoves " + ALL_OUTER
           + "\n" + EDGES_ANY + "\nEnd\n")
U_LAYER = [6, 7, 10, 11, 14, 15, 22, 23]
# Wing slots (0-based) placed per phase, and the longest 3-cycle sequence offered there.
GROUPS = [([0, 1, 8, 12], 8), ([2, 4, 16, 17], 8), ([3, 5, 9, 13], 8), ([18, 19, 20, 21], 9), (U_LAYER, 99)]
placed = []
for targets, longest in GROUPS:
    free = set(range(24)) - set(placed)
    seqs = [(k, w) for k, w in sorted(triple.items())
            if set(k) <= free and set(k) & set(targets) and len(w) <= longest]
    # Every free slot in some sequence (else the phase's puzzle would leave it out and a
    # target wing standing there could not be moved): the shortest ones through it.
    covered = set(x for k, _ in seqs for x in k)
    for x in sorted(free - covered):
        extra = sorted((len(w), k, w) for k, w in triple.items()
                       if x in k and set(k) <= free and set(k) & set(targets))[:4]
        seqs += [(k, w) for _, k, w in extra if (k, w) not in seqs]
    seqs.sort()
    # Double 3-cycles among the free slots through two wings or more that the phase places.
    doubles = [(c, w) for c, w in sorted(double.items())
               if set(c[0] + c[1]) <= free and len(set(c[0] + c[1]) & set(targets)) >= 2]
    n, k = len(free), len(targets)
    size = 4
    for j in range(n - k + 1, n + 1): size *= j
    lines = ["# Wing slots %s (1-based) with %d wing 3-cycles, %d double 3-cycles%s and U:"
             " %d!/%d! x 4 = %s positions."
             % (" ".join(str(x + 1) for x in targets), len(seqs), len(doubles),
                " and the wing transposition" if targets == U_LAYER else "", n, n - k, f"{size:,}"),
             "Phase wings-" + "-".join(str(x + 1) for x in targets), "Moves U U2 U'"]
    for t, w in seqs:
        lines.append("Sequence c%d_%d_%d %s" % (t[0] + 1, t[1] + 1, t[2] + 1, " ".join(w)))
    for c, w in doubles:
        lines.append("Sequence c%s %s" % (".".join("_".join(str(x + 1) for x in t) for t in c),
                                          " ".join(w)))
    if targets == U_LAYER:
        lines.append("Sequence parity " + " ".join(PARITY))
    placed += targets
    rest = free - set(targets)
    filler = min(rest) + 1 if rest else 1  # the wings not placed yet: identical for now
    lines.append("EDGES\n" + numbers([i + 1 if i in placed else filler for i in range(24)]))
    lines.append("End\n")
    out.append("\n".join(lines))
open(OUT, "w").write("\n".join(out))
