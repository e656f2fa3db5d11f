# Conversion to and from sympy.combinatorics (Debian's python3-sympy), and SymPy as a second,
# independent implementation: the same orders, the same products and the same membership answers.
import pytest

from permuzzle import Permutation, PermutationGroup

combinatorics = pytest.importorskip("sympy.combinatorics")

from test_group import CUBE, M24  # noqa: E402


def test_permutations_round_trip_and_multiply_alike():
    p = Permutation.from_cycles("(1,2,3)(4,5)")
    q = Permutation.from_cycles("(2,5)")
    sp, sq = p.to_sympy(), q.to_sympy()
    assert isinstance(sp, combinatorics.Permutation)
    assert Permutation.from_sympy(sp) == p
    # SymPy's p*q also applies p first: the products agree point by point.
    assert Permutation.from_sympy(sp * sq) == p * q
    assert (p * q).array_form == (sp * sq).array_form[: len((p * q).array_form)]


def test_groups_round_trip_with_the_same_order():
    for gens in (["(1,2,3)", "(1,2)"], M24):
        g = PermutationGroup(gens)
        s = g.to_sympy()
        assert s.order() == g.order()
        assert PermutationGroup.from_sympy(s).order() == g.order()


def test_cube_order_and_membership_agree_with_sympy():
    g = PermutationGroup(CUBE)
    s = g.to_sympy()
    assert s.order() == g.order() == 43252003274489856000
    for seed in range(5):
        x = g.random(seed=seed)
        assert s.contains(x.to_sympy())
    swap = Permutation.from_cycles("(1,3)")  # one corner sticker swap: not a cube move
    assert not g.contains(swap)
    assert not s.contains(combinatorics.Permutation(swap.array_form, size=48))

