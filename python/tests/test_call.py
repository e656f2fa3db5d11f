# The registry through permuzzle.call: the CLI's --json as Python objects, the CLI's messages.
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import permuzzle


def test_loopover_3x3_bfs_histogram():
    # Loopover 3x3 (published: 9!/2 ... all 362880 positions, God's number 8).
    r = permuzzle.call("loopover", "bfs", size="3x3")
    assert r["histogram"] == [1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475]


def test_same_json_as_cli(cli):
    out = subprocess.run([cli, "--json", "loopover", "bfs", "3x3"], capture_output=True,
                         text=True, check=True).stdout
    cli_json = json.loads(out)
    mine = permuzzle.call("loopover", "bfs", size="3x3")
    for key in ("histogram", "max_distance", "states"):
        assert mine[key] == cli_json[key]


def test_sliding_solve_hardest_8_puzzle():
    # The two hardest 8-puzzle positions need 31 moves (Reinefeld 1993).
    for position in ("8 6 7 / 2 5 4 / 3 0 1", "6 4 7 / 8 5 0 / 3 2 1"):
        r = permuzzle.sliding.solve(position)
        assert r["length"] == 31 and r["optimal"] and r["verified"]
        assert permuzzle.call("sliding", "solve", position=position)["moves"] == r["moves"]


def test_unsolvable_position_raises():
    # 11 inversions on a 3-wide board: odd parity, unreachable from the standard goal.
    with pytest.raises(ValueError, match="NOT solvable"):
        permuzzle.sliding.solve("8 1 2 / 0 4 3 / 7 6 5")


def test_korf_instance_1_in_57_moves():
    # Korf (1985), instance 1: 57 moves (the published optimum).
    # Korf's goal has the blank first.
    r = permuzzle.sliding.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", goal="blank-first",
                                heuristic="linear-conflict")
    assert r["length"] == 57 and r["optimal"] and r["verified"]


def test_loopover_solve():
    # One row move away from the goal; 3x3 positions are at most 8 moves away (the BFS below).
    assert permuzzle.loopover.solve("2 3 1 / 4 5 6 / 7 8 9", size="3x3")["length"] == 1
    r = permuzzle.loopover.solve("9 8 7 / 6 5 4 / 3 2 1", size="3x3")
    assert 1 <= r["length"] <= 8


def test_bad_input_raises_the_cli_message(cli):
    with pytest.raises(ValueError) as e:
        permuzzle.call("sliding", "solve", position="1 2 3 / 4 5 6 / 7 8 8")
    proc = subprocess.run([cli, "sliding", "solve", "1 2 3 / 4 5 6 / 7 8 8"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "permuzzle: error: " + str(e.value).strip()


def test_unknown_command_and_parameter():
    with pytest.raises(ValueError, match="did you mean 'loopover'"):
        permuzzle.call("lopover", "bfs", size="3x3")
    with pytest.raises(ValueError, match="sizee"):
        permuzzle.call("loopover", "bfs", sizee="3x3")


def test_limit_raises_limit_exceeded():
    with pytest.raises(permuzzle.LimitExceeded):
        permuzzle.call("sliding", "solve", position="14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
                       goal="blank-first", heuristic="manhattan", max_nodes=1000)
    assert issubclass(permuzzle.LimitExceeded, ValueError)


def test_progress_callable_is_called():
    seen = []
    permuzzle.call("loopover", "bfs", size="3x3", progress=seen.append)
    assert seen and all({"phase", "done", "total", "message"} <= set(p) for p in seen)


def test_describe_lists_commands():
    names = {(c["family"], c["verb"]) for c in permuzzle.commands()}
    assert ("sliding", "solve") in names and ("loopover", "bfs") in names


# The child installs Python's Ctrl-C handler itself: a process started from a background job
# inherits SIGINT as ignored, and Python then leaves it ignored.
CTRL_C = textwrap.dedent("""
    import signal, sys, permuzzle
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print("started", flush=True)
    try:
        permuzzle.call({family!r}, {verb!r}, **{params!r})
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(42)
    print("finished", flush=True)
""")


@pytest.mark.parametrize("family,verb,params", [
    # Loopover's whole-graph BFS checks the stop token: the worker stops. (3x4: 479,001,600
    # positions, about 26 s over every position, a second over its symmetry classes; the optimal
    # 4x4 solver, which checks it too, is now done in about a second, too soon to be interrupted
    # reliably.)
    ("loopover", "bfs", {"size": "3x4", "symmetry": "none"}),
    # The sliding solver does not (yet): the call is abandoned after one second.
    ("sliding", "solve", {"position": "17 1 20 9 16 / 2 22 19 14 5 / 15 21 0 3 24 / "
                                      "23 18 13 12 7 / 10 8 6 4 11",
                          "heuristic": "manhattan"}),
])
def test_ctrl_c_interrupts_a_long_call(family, verb, params):
    code = CTRL_C.format(family=family, verb=verb, params=params)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env=os.environ.copy())
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.0)
    assert proc.poll() is None, "the call finished before the interrupt"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=10)
    elapsed = time.monotonic() - sent
    assert proc.returncode == 42 and "interrupted" in out
    assert elapsed < 2.0


def test_an_exception_in_progress_stops_the_call():
    class Stop(Exception):
        pass

    def progress(p):
        raise Stop(p["message"])

    with pytest.raises(Stop):
        permuzzle.sliding.solve("8 6 7 / 2 5 4 / 3 0 1", heuristic="manhattan",
                                progress=progress)
    # The module is still usable afterwards.
    assert permuzzle.sliding.solve("8 6 7 / 2 5 4 / 3 0 1")["length"] == 31


def test_big_integers_are_exact_or_refused():
    with pytest.raises(ValueError, match="max-nodes"):
        permuzzle.call("sliding", "solve", position="8 6 7 / 2 5 4 / 3 0 1", max_nodes=-1)
    with pytest.raises(ValueError, match="max-nodes"):
        permuzzle.call("sliding", "solve", position="8 6 7 / 2 5 4 / 3 0 1", max_nodes=2 ** 64)


def test_artifacts_come_back_in_the_result():
    r = permuzzle.call("loopover", "bfs", size="3x3", svg="-")
    assert r["artifacts"]["svg"].startswith("<svg")
    assert permuzzle.call("group", "order", generators=["(1,2,3)", "(1,2)"])["order"] == "6"


def test_sliding_board():
    b = permuzzle.sliding.Board("8 6 7 / 2 5 4 / 3 0 1")
    assert (b.rows, b.cols) == (3, 3) and str(b) == "8 6 7 / 2 5 4 / 3 0 1"
    assert b._repr_svg_().startswith("<svg") and b._repr_svg_().count("<rect") == 8
    r = b.solve()
    assert r["length"] == 31
    # Replaying the solution's tiles reaches the standard goal.
    solved = b.apply(" ".join(map(str, r["moves"])))
    assert solved == permuzzle.sliding.Board("1 2 3 / 4 5 6 / 7 8 0")
    with pytest.raises(ValueError):
        permuzzle.sliding.Board("1 2 3 / 4 5 6 / 7 8 8")


# --- the front end's contract: no host paths, limits, stopped runs, bytes ------------------------

MINI_DEF = "Name mini\nSet C 3 1\nSolved\nC\n1 2 3\nEnd\nMove X\nC\n2 3 1\nEnd\n"


def test_call_never_reads_a_host_path():
    with pytest.raises(ValueError, match="does not grant") as e:
        permuzzle.call("bench", "korf100", file="/etc/passwd")
    # Nothing of the file comes back (its first line names root).
    assert "root" not in str(e.value)


def test_call_never_writes_a_checkpoint(tmp_path):
    target = tmp_path / "checkpoint"
    with pytest.raises(ValueError, match="does not grant"):
        permuzzle.call("def", "bfs", file={"name": "mini.tws", "text": MINI_DEF},
                       checkpoint=str(target))
    assert not target.exists() and list(tmp_path.iterdir()) == []
    # Without the checkpoint the same call runs: X and X' reach the two other rotations of the
    # 3-cycle in one move.
    r = permuzzle.call("def", "bfs", file={"name": "mini.tws", "text": MINI_DEF})
    assert r["histogram"] == [1, 2]


def test_time_limit_stops_a_long_call():
    # Loopover 3x4's whole-graph BFS over every position takes about 26 s (over its symmetry
    # classes, under a second); the limit stops it. A stopped run raises LimitExceeded with what it
    # knew in `partial` (a partial histogram) or, for a command that knew nothing useful, None.
    started = time.monotonic()
    with pytest.raises(permuzzle.LimitExceeded) as e:
        permuzzle.call("loopover", "bfs", size="3x4", symmetry="none", time_limit=0.5)
    assert time.monotonic() - started < 5.0
    partial = e.value.partial
    assert partial is None or partial["complete"] is False
    # A limit that means nothing is refused, as on the command line.
    for limit in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="time_limit"):
            permuzzle.call("perm", "order", perm="(1,2)", time_limit=limit)
    for memory in (0, -5, 2 ** 64, "big"):
        with pytest.raises(ValueError, match="memory"):
            permuzzle.call("perm", "order", perm="(1,2)", memory=memory)
    assert permuzzle.call("perm", "order", perm="(1,2,3)", time_limit=10, memory=64)["order"] \
        == "3"


def test_limit_exceeded_refused_before_running_has_no_partial():
    with pytest.raises(permuzzle.LimitExceeded) as e:
        permuzzle.call("sliding", "solve", position="14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
                       goal="blank-first", heuristic="manhattan", max_nodes=1000)
    assert e.value.partial is None


def test_text_that_is_not_utf8_is_refused_with_the_bytes_escaped():
    # Python strings are Unicode; a definition file read from disk may not be. Its name is
    # refused by the reader, and the message (a Python str, never a decode error) shows the byte.
    with pytest.raises(ValueError) as e:
        permuzzle.call("def", "info",
                       file={"name": "latin.tws", "text": MINI_DEF.replace("mini", "caf\udce9")})
    assert "latin.tws:1:" in str(e.value)
    assert "\\xE9" in str(e.value)
