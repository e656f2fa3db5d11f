# The puzzle helpers: permuzzle.cube.solve and permuzzle.Puzzle (definition files) over the
# registry, checked against facts from outside (published counts) and a second method.
import pathlib

import pytest

import permuzzle

ROOT = pathlib.Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "data/puzzles"


def test_cube_solve_short_scramble_is_verified_and_optimal():
    # R U R' U' needs 4 face turns (no shorter sequence gives that position: the optimal solver
    # proves it).
    r = permuzzle.cube.solve(moves="R U R' U'")
    assert r["verified"] and r["length"] <= 4
    best = permuzzle.cube.solve(moves="R U R' U'", optimal=True)
    assert best["optimal"] and best["length"] == 4 and best["verified"]


def test_cube_solve_random_state_within_gods_number():
    facelets = permuzzle.call("cube", "random", seed=3)["facelets"]
    r = permuzzle.cube.solve(facelets)
    assert r["verified"] and r["length"] <= 20  # God's number, half-turn metric


def test_cube_solve_rejects_a_twisted_corner():
    solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    # Twist the URF corner: U sticker 9 (index 8), R sticker 1 (index 9), F sticker 3 (index 20).
    f = list(solved)
    f[8], f[9], f[20] = "F", "U", "R"
    with pytest.raises(ValueError, match="twist"):
        permuzzle.cube.solve("".join(f))


def test_definition_file_info_counts_positions():
    fixed = permuzzle.Puzzle.from_file(str(PUZZLES / "2x2x2-fixed-corner.tws"))
    assert fixed.info()["positions"] == "3674160"  # 7! * 3^6
    m24 = permuzzle.Puzzle.from_file(str(PUZZLES / "m24.tws"))
    assert m24.info()["positions"] == "244823040"  # |M24| (ATLAS)


def test_definition_from_text_and_apply():
    text = (PUZZLES / "2x2x2-fixed-corner.tws").read_text()
    p = permuzzle.Puzzle(text, name="mine.tws")
    assert p.info()["positions"] == "3674160"
    a = p.apply(moves="R U R' U'")
    b = permuzzle.Puzzle.from_file(str(PUZZLES / "2x2x2-fixed-corner.tws")).apply(moves="R U R' U'")
    assert a == b


def test_definition_errors_name_the_file_and_line():
    with pytest.raises(ValueError, match=r"broken\.tws:2"):
        permuzzle.Puzzle("Set A 2 1\nSolvd\n", name="broken.tws").info()


def test_definition_solve_by_phases():
    # phases="auto" or a phase file's text, as `def solve --phases` (docs/def-phases.md).
    p = permuzzle.Puzzle.from_file(str(PUZZLES / "2x2x2-fixed-corner.tws"))
    out = p.solve(moves="R U F R2 U' F' R U2", phases="auto")
    sol = out["solutions"][0]
    assert sol["verified"] and len(sol["phases"]) == 2
    # Moves of one face merge across a phase boundary: never longer than the phases added up.
    assert 0 < sol["length"] <= sum(ph["length"] for ph in sol["phases"])
    # Replayed outside the solver: scramble then solution is solved.
    back = p.apply(moves="R U F R2 U' F' R U2 " + " ".join(sol["moves"]))
    assert back["solved"]
    phases = "Phase orient\nCORNERS\n1 1 1 1 1 1 1\n0 0 0 0 0 0 0\nEnd\n"
    out = p.solve(moves="R U F", phases=phases)
    assert [ph["pattern"] for ph in out["solutions"][0]["phases"]] == ["orient", "solved"]
