#!/usr/bin/env python3
# Writes pyraminx.tws, pyraminx-tips.tws, skewb.tws, m24.tws, topspin.tws and
# 4x4x4-fixed-corner.tws (run it in
# data/puzzles/). Pieces are placed in 3D; a move is a rigid 120-degree rotation of the pieces
# on one side of a plane, and each piece's orientation change is read off where its first
# sticker lands (stickers of a slot listed in one consistent cyclic order). The cube, 2x2x2 and
# Loopover files come from `permuzzle cube export` and `permuzzle loopover export RxC`.
# Generates pyraminx and skewb definition files from 3D geometry (rigid rotations of pieces).
import itertools, sys
from fractions import Fraction as F

def rot(axis, v, turns):
    # rotation by -120deg*turns (clockwise seen from outside along axis) for 3-fold axes
    # use the cyclic permutation of coordinates trick: 3-fold axes of a cube through (a,b,c) with |a|=|b|=|c|=1
    # general Rodrigues with cos(-120)=-1/2, sin(-120)=-sqrt3/2: avoid irrationals by matrix for 3-fold cube axes
    a = axis
    # rotation about (1,1,1) by +120 (right hand): (x,y,z)->(z,x,y). Conjugate by sign flips.
    s = [1 if t > 0 else -1 for t in a]
    x = [v[i]*s[i] for i in range(3)]
    for _ in range(turns):
        x = [x[1], x[2], x[0]]  # this is rotation by -120 about (1,1,1)
    return tuple(x[i]*s[i] for i in range(3))

def dot(a,b): return sum(p*q for p,q in zip(a,b))
def det(a,b,c):
    return (a[0]*(b[1]*c[2]-b[2]*c[1]) - a[1]*(b[0]*c[2]-b[2]*c[0]) + a[2]*(b[0]*c[1]-b[1]*c[0]))

def order_stickers(pos, normals):
    # first normal fixed, then a consistent cyclic (clockwise) order
    if len(normals) < 3: return list(normals)
    n0 = normals[0]
    for n1, n2 in itertools.permutations(normals[1:], 2):
        if det(n0, n1, n2) > 0: return [n0, n1, n2]
    raise SystemExit("bad")

def move_of(pieces, axis, include, turns=1):
    # pieces: list of (pos, [normals...]) ; returns passive perm (0-based) and ori
    n = len(pieces)
    perm = list(range(n)); ori = [0]*n
    for x,(p, ns) in enumerate(pieces):
        if not include(p): continue
        q = rot(axis, p, turns)
        t = [i for i,(pp,_) in enumerate(pieces) if pp == q]
        assert len(t) == 1, (p, q)
        t = t[0]
        ref = rot(axis, ns[0], turns)
        j = pieces[t][1].index(ref)
        perm[t] = x; ori[t] = j
    return perm, ori

def block(name, perm, ori, o):
    # ksolve Move block lines: perm 1-based, orientation per piece
    by_piece = [0]*len(perm)
    for i,p in enumerate(perm): by_piece[p] = ori[i]
    out = [name, " ".join(str(p+1) for p in perm)]
    if o > 1: out.append(" ".join(str(v) for v in by_piece))
    return out

def identity(perm): return all(p == i for i,p in enumerate(perm))

def write(fname, name, comment, sets, moves):
    # sets: list of (setname, pieces, o); moves: list of (movename, {setname: (perm, ori)})
    L = ["# " + c for c in comment] + ["Name " + name, ""]
    for s, pcs, o in sets: L.append(f"Set {s} {len(pcs)} {o}")
    L += ["", "Solved"]
    for s, pcs, o in sets:
        L.append(s); L.append(" ".join(str(i+1) for i in range(len(pcs))))
        if o > 1: L.append(" ".join("0" for _ in pcs))
    L.append("End")
    for mname, eff in moves:
        L += ["", "Move " + mname]
        for s, pcs, o in sets:
            if s in eff and not (identity(eff[s][0]) and not any(eff[s][1])):
                L += block(s, eff[s][0], eff[s][1], o)
        L.append("End")
    open(fname, "w").write("\n".join(L) + "\n")

def scaled(v, k): return tuple(k*t for t in v)

# ---- pyraminx: vertices of a tetrahedron inside the cube (±1)^3 ----
V = {"U": (1,1,1), "L": (1,-1,-1), "R": (-1,1,-1), "B": (-1,-1,1)}
names = list(V)
def face_normal(opp): return scaled(V[opp], -1)
# edges: midpoints (scaled by 2 to stay integral): V[x]+V[y]
edges = []
for x, y in itertools.combinations(names, 2):
    others = [z for z in names if z not in (x, y)]
    edges.append((tuple(a+b for a,b in zip(V[x],V[y])), [face_normal(z) for z in others]))
def vertex_pieces(scale):
    out = []
    for v in names:
        others = [z for z in names if z != v]
        out.append((scaled(V[v], scale), order_stickers(V[v], [face_normal(z) for z in others])))
    return out
centres = vertex_pieces(2)   # axial pieces, |dot| with own vertex 6
tips = vertex_pieces(3)
def pyr(with_tips):
    sets = [("CENTERS", centres, 3), ("EDGES", edges, 2)] + ([("TIPS", tips, 3)] if with_tips else [])
    moves = []
    for v in names:
        eff = {}
        for s, pcs, o in sets:
            eff[s] = move_of(pcs, V[v], lambda p: dot(p, V[v]) > 0)
        moves.append((v, eff))
    if with_tips:
        for v in names:
            eff = {"TIPS": move_of(tips, V[v], lambda p: dot(p, V[v]) > 6)}
            moves.append((v.lower(), eff))
    return sets, moves
s, m = pyr(False)
write("pyraminx.tws", "pyraminx", [
  "Pyraminx without tips, written for permuzzle (geometry: data/puzzles/geometry.py).",
  "Vertices U (top), L, R, B; CENTERS are the axial pieces (they twist in place), EDGES the six",
  "edges UL UR UB LR LB RB. Moves U L R B turn the two layers at a vertex 120 degrees clockwise",
  "seen from that vertex. Positions: 933,120 (times 81 with the tips: pyraminx-tips.tws)."], s, m)
s, m = pyr(True)
write("pyraminx-tips.tws", "pyraminx-tips", [
  "Pyraminx with tips, written for permuzzle (geometry: data/puzzles/geometry.py).",
  "As pyraminx.tws plus TIPS; U L R B turn tip and axial layer, u l r b the tip alone.",
  "Positions: 933,120 * 81 = 75,582,720."], s, m)

# ---- skewb: corners (±1)^3, centres on faces; moves about the 4 corners of one tetrad ----
corners = []
for c in itertools.product((1,-1), repeat=3):
    ns = [(c[0],0,0), (0,c[1],0), (0,0,c[2])]
    ns = [ns[2]] + [n for n in ns[:2]]
    corners.append((tuple(2*t for t in c), order_stickers(c, ns)))
centres6 = [((2,0,0),[(1,0,0)]), ((-2,0,0),[(-1,0,0)]), ((0,2,0),[(0,1,0)]), ((0,-2,0),[(0,-1,0)]), ((0,0,2),[(0,0,1)]), ((0,0,-2),[(0,0,-1)])]
# order corners as U layer then D layer for readability
axes = {"R": (1,-1,-1), "L": (-1,-1,1), "U": (1,1,1), "B": (-1,1,-1)}
sets = [("CORNERS", corners, 3), ("CENTERS", centres6, 1)]
moves = []
for name, a in axes.items():
    eff = {s: move_of(pcs, a, lambda p: dot(p, a) > 0) for s, pcs, o in sets}
    moves.append((name, eff))
write("skewb.tws", "skewb", [
  "Skewb, written for permuzzle: corners at (x,y,z) in {+1,-1}^3 (x fastest: +++ ++- +-+ ...),",
  "centres +x -x +y -y +z -z. Moves R L U B turn the half of the cube around the corners",
  "(+1,-1,-1), (-1,-1,+1), (+1,+1,+1), (-1,+1,-1) by 120 degrees, clockwise seen from the corner.",
  "The corners of the other tetrad never leave their places. Positions: 3,149,280."], sets, moves)

# ---- permutation groups given by cycles: M24 and TopSpin ----
def from_cycles(cycles, n):
    img = list(range(n))  # active: point x goes to img[x]
    for c in cycles:
        for i, x in enumerate(c): img[x-1] = c[(i+1) % len(c)] - 1
    perm = [0]*n
    for x in range(n): perm[img[x]] = x  # passive: slot img[x] receives x
    return perm, [0]*n

def parse_cycles(text):
    return [tuple(int(t) for t in c.split(",")) for c in text.strip("()").split(")(")]

n = 24
pts = [None]*n
gens = [("a", "(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)"),
        ("b", "(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)"),
        ("c", "(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)")]
write("m24.tws", "M24", [
  "The Mathieu group M24 on 24 points (order 244,823,040), written for permuzzle: the three",
  "generators GAP's MathieuGroup(24) uses. a and b alone generate M23 (order 10,200,960).",
  "a = " + gens[0][1], "b = " + gens[1][1], "c = " + gens[2][1]],
  [("POINTS", pts, 1)], [(g, {"POINTS": from_cycles(parse_cycles(c), n)}) for g, c in gens])

n = 20
shift = tuple(range(1, 21))
write("topspin.tws", "topspin-20-4", [
  "TopSpin (20,4), written for permuzzle: 20 numbered discs on a loop, slots 1..20 around it.",
  "S shifts every disc one slot on (slot i to i+1, 20 to 1); T is the turnstile, which reverses",
  "the discs in slots 1..4. Positions count the track's 20 rotations apart: 20! of them."],
  [("DISCS", [None]*n, 1)],
  [("S", {"DISCS": from_cycles([shift], n)}), ("T", {"DISCS": from_cycles([(1,4),(2,3)], n)})])

# ---- 4x4x4 with the DBL corner fixed: identical centres ----
# Cubie centres at odd coordinates in {-3,-1,1,3}^3 on the surface; axes x: R+/L-, y: U+/D-,
# z: F+/B-. A layer turn is a 90-degree rotation, clockwise seen from the face it turns like.
def rot90(axis, sign, v):
    n = [0, 0, 0]; n[axis] = sign
    cx = (n[1]*v[2]-n[2]*v[1], n[2]*v[0]-n[0]*v[2], n[0]*v[1]-n[1]*v[0])
    d = dot(n, v)
    return tuple(-cx[i] + n[i]*d for i in range(3))

def layer_move(pieces, axis, sign, value):
    n = len(pieces); perm = list(range(n)); ori = [0]*n
    for x, (p, ns) in enumerate(pieces):
        if p[axis] != value: continue
        q = rot90(axis, sign, p)
        t = [i for i, (pp, _) in enumerate(pieces) if pp == q][0]
        j = pieces[t][1].index(rot90(axis, sign, ns[0])) if len(ns) > 1 else 0
        perm[t] = x; ori[t] = j
    return perm, ori

def surface(N):
    m = N - 1
    coords = range(-m, m + 1, 2)
    cs, es, fs = [], [], []
    for p in itertools.product(coords, repeat=3):
        outer = [i for i in range(3) if abs(p[i]) == m]
        if not outer: continue
        normals = []
        for i in outer:
            nn = [0, 0, 0]; nn[i] = 1 if p[i] > 0 else -1; normals.append(tuple(nn))
        # U/D sticker first (axis y), then a consistent cyclic order
        normals.sort(key=lambda nn: 0 if nn[1] else 1)
        if len(outer) == 3: cs.append((p, order_stickers(p, normals)))
        elif len(outer) == 2: es.append((p, normals))
        else: fs.append((p, normals))
    return cs, es, fs

cs, es, fs = surface(4)
cs = [c for c in cs if c[0] != (-3, -3, -3)]
face_of = {(0, 1): 0, (0, -1): 1, (1, 1): 2, (1, -1): 3, (2, 1): 4, (2, -1): 5}
sets = [("CORNERS", cs, 3), ("EDGES", es, 1), ("CENTERS", fs, 1)]
moves = []
for name, axis, sign, value in [("U", 1, 1, 3), ("R", 0, 1, 3), ("F", 2, 1, 3),
                                ("u", 1, 1, 1), ("d", 1, -1, -1), ("r", 0, 1, 1),
                                ("l", 0, -1, -1), ("f", 2, 1, 1), ("b", 2, -1, -1)]:
    moves.append((name, {s: layer_move(pcs, axis, sign, value) for s, pcs, o in sets}))
write("4x4x4-fixed-corner.tws", "4x4x4-fixed-corner", [
  "4x4x4 with the DBL corner fixed, written for permuzzle (geometry.py): moves U R F (outer",
  "layers) and the six inner slices u d r l f b (each turning like its face). The 24 centres",
  "are identical in fours (one label per face). Positions: 7,401,196,841,564,901,869,874,093,",
  "974,498,574,336,000,000,000."], sets, moves)
# identical centres: relabel the Solved block of CENTERS by face
txt = open("4x4x4-fixed-corner.tws").read()
labels = []
for p, ns in fs:
    i = [k for k in range(3) if abs(p[k]) == 3][0]
    labels.append(face_of[(i, 1 if p[i] > 0 else -1)] + 1)
ident = " ".join(str(i + 1) for i in range(24))
txt = txt.replace("CENTERS\n" + ident + "\nEnd", "CENTERS\n" + " ".join(map(str, labels)) + "\nEnd", 1)
open("4x4x4-fixed-corner.tws", "w").write(txt)

# ---- megaminx: a dodecahedron with its 12 centres fixed ----
# The face normals are the icosahedron's vertices (0,±1,±φ), (±1,±φ,0), (±φ,0,±1) (floats,
# compared after rounding). Two faces are adjacent when their normals meet at the icosahedron's
# edge angle (dot product φ); an edge piece is an adjacent pair of faces (30), a corner a
# mutually adjacent triple (20), placed at the sum of its normals. A face move is a 72-degree
# turn, clockwise seen from outside that face, of the pieces with a sticker on it.
def megaminx():
    import math
    phi = (1 + 5 ** 0.5) / 2
    normals = []
    for a, b in ((1, phi), (1, -phi), (-1, phi), (-1, -phi)):
        normals += [(0, a, b), (a, b, 0), (b, 0, a)]
    def key(v): return tuple(round(t, 6) + 0.0 for t in v)
    def rotate(axis, v, turns):
        # Rodrigues' formula: -72 degrees per turn about axis (clockwise seen from outside)
        k = scaled(axis, 1 / math.sqrt(dot(axis, axis)))
        angle = -2 * math.pi / 5 * turns
        c, s = math.cos(angle), math.sin(angle)
        cross = (k[1]*v[2]-k[2]*v[1], k[2]*v[0]-k[0]*v[2], k[0]*v[1]-k[1]*v[0])
        kv = dot(k, v)
        return tuple(v[i]*c + cross[i]*s + k[i]*kv*(1-c) for i in range(3))
    def adjacent(a, b): return abs(dot(a, b) - phi) < 1e-6
    # Names as speedcubers (and cubing.js) use them: U on top; its ring clockwise seen from above
    # F (front), L, BL, BR, R; below them FL (between F and L), DL (L, BL), B (BL, BR),
    # DR (BR, R), FR (R, F); D at the bottom. Opposite faces: U-D, F-B, L-DR, BL-FR, BR-FL,
    # R-DL.
    U = (0, 1, phi)
    F = [n for n in normals if adjacent(n, U)][0]
    face = {"U": U, "F": F, "D": scaled(U, -1)}
    ring = ["F", "L", "BL", "BR", "R"]
    for i in range(1, 5): face[ring[i]] = rotate(U, F, i)
    lower = {"FL": ("F", "L"), "DL": ("L", "BL"), "B": ("BL", "BR"), "DR": ("BR", "R"),
             "FR": ("R", "F")}
    for name, (x, y) in lower.items():
        face[name] = [n for n in normals if adjacent(n, face[x]) and adjacent(n, face[y])
                      and key(n) != key(U)][0]
    order = ["U", "F", "L", "BL", "BR", "R", "FL", "DL", "B", "DR", "FR", "D"]
    assert sorted(key(face[f]) for f in order) == sorted(key(n) for n in normals)
    # Pieces in the order of their faces' names in `order` (the U face's first); a piece's
    # first sticker is on its first face there; a corner's other two follow in the cyclic
    # order order_stickers gives.
    edges, corners = [], []
    for f, g in itertools.combinations(order, 2):
        if adjacent(face[f], face[g]):
            edges.append((f + "-" + g, [face[f], face[g]]))
    for f, g, h in itertools.combinations(order, 3):
        if adjacent(face[f], face[g]) and adjacent(face[g], face[h]) and adjacent(face[f], face[h]):
            n0, n1, n2 = face[f], face[g], face[h]
            corners.append((f + "-" + g + "-" + h, [n0, n1, n2] if det(n0, n1, n2) > 0 else [n0, n2, n1]))
    assert len(edges) == 30 and len(corners) == 20
    def turn(pieces, axis):
        # as move_of: slot t receives the piece of slot x with orientation j (where x's first
        # sticker lands among t's stickers)
        n = len(pieces); perm = list(range(n)); ori = [0] * n
        at = {key(sum_of(ns)): i for i, (_, ns) in enumerate(pieces)}
        for x, (_, ns) in enumerate(pieces):
            if not any(key(m) == key(axis) for m in ns): continue
            t = at[key(sum_of([rotate(axis, m, 1) for m in ns]))]
            j = [key(m) for m in pieces[t][1]].index(key(rotate(axis, ns[0], 1)))
            perm[t] = x; ori[t] = j
        return perm, ori
    def sum_of(ns): return tuple(sum(m[i] for m in ns) for i in range(3))
    sets = [("EDGES", edges, 2), ("CORNERS", corners, 3)]
    moves = [(f, {s: turn(pcs, face[f]) for s, pcs, o in sets}) for f in order]
    write("megaminx.tws", "megaminx", [
      "Megaminx (centres fixed), written for permuzzle from 3D geometry (data/puzzles/geometry.py).",
      "Faces as speedcubers and cubing.js name them: U on top; around it, clockwise seen from",
      "above, F (front), L, BL, BR, R; below them FL (between F and L), DL (L, BL), B (BL, BR),",
      "DR (BR, R), FR (R, F); D at the bottom (opposite U; F-B, L-DR, BL-FR, BR-FL, R-DL are",
      "opposite too). Each move turns one face 72 degrees clockwise seen from outside it.",
      "EDGES: " + " ".join(name for name, _ in edges[:15]),
      "  " + " ".join(name for name, _ in edges[15:]) + ".",
      "CORNERS: " + " ".join(name for name, _ in corners[:10]),
      "  " + " ".join(name for name, _ in corners[10:]) + ".",
      "A piece's orientation 0 is its sticker on the first face of its name on that face; a",
      "corner's stickers are numbered counterclockwise seen from outside.",
      "Positions: 30!/2 * 2^29 * 20!/2 * 3^19 = 100,669,616,553,523,347,122,516,032,313,645,505,",
      "168,688,116,411,019,768,627,200,000,000,000."], sets, moves)
megaminx()
