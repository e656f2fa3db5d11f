# Permutations: GAP conventions for text and products, SymPy's for 0-based forms.
import pytest

import permuzzle
from permuzzle import Permutation


def test_gap_product_order():
    # GAP: (1,2)*(2,3) = (1,3,2) (apply (1,2) first).
    p = Permutation.from_cycles("(1,2)") * Permutation.from_cycles("(2,3)")
    assert p == Permutation.from_cycles("(1,3,2)")
    assert repr(p) == "(1,3,2)"
    assert str(Permutation()) == "()"


def test_array_form_is_zero_based_like_sympy():
    p = Permutation([1, 2, 0, 4, 3])  # 0->1, 1->2, 2->0, 3->4, 4->3
    assert repr(p) == "(1,2,3)(4,5)"
    assert p(0) == 1 and p(2) == 0 and p(7) == 7
    assert p.array_form == [1, 2, 0, 4, 3]
    assert p.cyclic_form == [[0, 1, 2], [3, 4]]
    assert p.support() == [0, 1, 2, 3, 4]
    assert Permutation.from_cyclic_form([[0, 1, 2], [3, 4]]) == p


def test_apply_then():
    p = Permutation.from_cycles("(1,2,3)")
    q = Permutation.from_cycles("(1,4)")
    for i in range(5):
        assert (p * q)(i) == q(p(i))


def test_order_parity_sign():
    p = Permutation.from_cycles("(1,2,3)(4,5)")
    assert p.order() == 6
    assert p.parity() == 1 and p.sign() == -1
    assert Permutation.from_cycles("(1,2,3)").parity() == 0
    # lcm(2,3,5,7,11,13,17,19,23) exceeds nothing here, but exercises the exact big int path.
    big = Permutation.from_cycles(
        "(1,2)(3,4,5)(6,7,8,9,10)(11,12,13,14,15,16,17)(18,19,20,21,22,23,24,25,26,27,28)")
    assert big.order() == 2 * 3 * 5 * 7 * 11
    assert type(big.order()) is int


def test_powers_inverse_exact():
    p = Permutation.from_cycles("(1,2,3,4,5)(6,7)")
    assert ~p == p ** -1
    assert p * ~p == Permutation()
    assert p ** 10 == Permutation()
    assert p ** 3 == p * p * p
    huge = 10 ** 40 + 3  # = 3 mod 10
    assert p ** huge == p ** 3
    assert p ** -huge == p ** -3


def test_equality_and_hash_ignore_degree():
    a = Permutation([1, 0])
    b = Permutation([1, 0, 2, 3])
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Permutation.from_cycles("(1,2)")}) == 1
    assert a != Permutation.from_cycles("(2,3)")
    assert (a == "not a permutation") is False


def test_bad_cycles_raise_value_error_with_the_parsers_message():
    with pytest.raises(ValueError) as e:
        Permutation.from_cycles("(1,2,2)")
    assert "(1,2,2)" in str(e.value)
    with pytest.raises(ValueError):
        Permutation([0, 0, 1])
