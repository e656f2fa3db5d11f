# Permutation groups: published orders, membership, words multiplied back.
import subprocess

import pytest

from permuzzle import Permutation, PermutationGroup

# GAP's Rubik's cube generators (facelets 1..48), as in src/api/group.cpp's demo.
CUBE = [
    "(1,3,8,6)(2,5,7,4)(9,33,25,17)(10,34,26,18)(11,35,27,19)",
    "(9,11,16,14)(10,13,15,12)(1,17,41,40)(4,20,44,37)(6,22,46,35)",
    "(17,19,24,22)(18,21,23,20)(6,25,43,16)(7,28,42,13)(8,30,41,11)",
    "(25,27,32,30)(26,29,31,28)(3,38,43,19)(5,36,45,21)(8,33,48,24)",
    "(33,35,40,38)(34,37,39,36)(3,9,46,32)(2,12,47,29)(1,14,48,27)",
    "(41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40)",
]
CUBE_NAMES = ["U", "L", "F", "R", "B", "D"]

# GAP's MathieuGroup(23) generators; MathieuGroup(24) adds an involution moving point 24.
# Orders 10200960 and 244823040 (ATLAS).
M23 = ["(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23)",
       "(3,17,10,7,9)(4,13,14,19,5)(8,18,11,12,23)(15,20,22,21,16)"]
M24 = M23 + ["(1,24)(2,23)(3,12)(4,16)(5,18)(6,10)(7,20)(8,14)(9,21)(11,17)(13,22)(15,19)"]


@pytest.fixture(scope="module")
def cube():
    return PermutationGroup(CUBE, names=CUBE_NAMES)


def test_cube_order(cube):
    assert cube.order() == 43252003274489856000
    assert cube.cardinality() == cube.order()
    assert cube.degree == 48


def test_cube_order_agrees_with_cli(cli):
    out = subprocess.run([cli, "--json", "group", "order", *CUBE], capture_output=True,
                         text=True, check=True).stdout
    assert "43252003274489856000" in out


def test_mathieu_orders():
    assert PermutationGroup(M23).order() == 10200960
    g = PermutationGroup(M24)
    assert g.order() == 244823040
    assert g.structure() == "M24" or g.structure().startswith("order")
    assert g.is_transitive()
    assert g.orbits() == [list(range(24))]


def test_cube_membership(cube):
    # A single corner twist is not reachable; a product of moves is.
    assert Permutation.from_cycles("(8,19,25)") not in cube
    assert not cube.contains("(8,19,25)")
    u, l, f = (Permutation.from_cycles(c) for c in CUBE[:3])
    x = u * l ** -1 * f * f * u
    assert x in cube and cube.contains(x)
    assert cube.random(seed=7) in cube


def test_words_multiply_back(cube):
    gens = dict(zip(CUBE_NAMES, (Permutation.from_cycles(c) for c in CUBE)))
    for seed in range(3):
        x = cube.random(seed=seed)
        product = Permutation()
        for name, exponent in cube.word(x):
            product = product * gens[name] ** exponent
        assert product == x
    assert cube.word_string(Permutation()) == "()"
    with pytest.raises(ValueError):
        cube.word(Permutation.from_cycles("(8,19,25)"))


def test_random_is_reproducible(cube):
    assert cube.random(seed=3) == cube.random(seed=3)
    assert cube.random_element(seed=3) == cube.random(seed=3)


def test_small_groups():
    s3 = PermutationGroup(["(1,2,3)", "(1,2)"])
    elements = s3.generate()
    assert len(elements) == 6 and len(set(elements)) == 6
    assert s3.structure() == "S3"
    a4 = PermutationGroup([Permutation.from_cycles("(1,2,3)"), "(1,2)(3,4)"])
    assert a4.order() == 12 and a4.structure() == "A4"
    assert a4.stabilizer(3).order() == 3
    assert a4.orbit(0) == [0, 1, 2, 3]
    dot = a4.cayley_graph()
    assert dot.lstrip().startswith(("digraph", "//")) and dot.count("->") == 24
    assert len(a4.strong_gens) >= 1 and len(a4.base) >= 1
    s3.schreier_sims()
    with pytest.raises(ValueError):
        PermutationGroup(M24).generate(limit=1000)


def test_direct_product_structure():
    # S10 on 1..10 and S6 on 11..16.
    g = PermutationGroup(["(1,2,3,4,5,6,7,8,9,10)", "(1,2)", "(11,12,13,14,15,16)", "(11,12)"])
    assert g.structure() == "S10 x S6"
    assert g.order() == 3628800 * 720
    assert not g.is_transitive()
