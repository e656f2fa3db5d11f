# The package as installed: `python -m permuzzle` prints what the CLI prints (bytes and exit
# code), permuzzle.main, the stubs and docstrings of every public name, the installed files.
import ast
import importlib.metadata
import inspect
import os
import pathlib
import shutil
import signal
import site
import subprocess
import sys
import time

import pytest

import permuzzle

PACKAGE_DIR = pathlib.Path(permuzzle.__file__).resolve().parent

# Argument lists run through both the program and `python -m permuzzle`: plain and --json
# output, list notation (kept whole by run.cpp), bad input, an unknown command with its
# suggestion, help, a value read from stdin, a file that cannot be read (exit 1), an option's
# bad value, an interactive game.
SAME_AS_CLI = [
    (["group", "order", "(1,2,3)", "(1,2)"], None),
    (["--json", "group", "order", "(1,2,3)", "(1,2)"], None),
    (["group", "order", "(1,2,3)", "(1,2)", "--json"], None),
    (["perm", "product", "[2,3,1]", "(1,2)"], None),
    (["group", "order", "(1,2,3"], None),
    (["--json", "group", "order", "(1,2,0)"], None),
    (["group", "ordr", "(1,2)"], None),
    (["group", "order", "--help"], None),
    ([], None),
    (["--memory", "0", "group", "order", "(1,2)"], None),
    (["group", "order", "-"], b"(1,2,3,4,5)\n"),
    (["group", "order", "@/nonexistent/generators.txt"], None),
    (["--time-limit", "0", "group", "order", "(1,2)"], None),
    (["hanoi", "play", "2"], b"AB\nq\n"),  # interactive: moves on stdin, as in a terminal
    (["--version"], None),
]


def run(command, stdin):
    return subprocess.run(command, input=stdin, capture_output=True, timeout=60)


@pytest.mark.parametrize("args,stdin", SAME_AS_CLI,
                         ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_python_m_prints_what_the_cli_prints(cli, args, stdin):
    program = run([cli, *args], stdin)
    module = run([sys.executable, "-m", "permuzzle", *args], stdin)
    assert (module.stdout, module.stderr, module.returncode) == (
        program.stdout, program.stderr, program.returncode)


def test_python_m_group_order_answers():
    # S3 has 6 elements; (1,2,3) and (1,2) generate it. Exit codes: 0, and 2 for bad input.
    ok = run([sys.executable, "-m", "permuzzle", "group", "order", "(1,2,3)", "(1,2)"], None)
    assert ok.returncode == 0 and ok.stdout.strip().endswith(b"6")
    bad = run([sys.executable, "-m", "permuzzle", "group", "order", "(1,2,3"], None)
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.startswith(b"permuzzle: error: ")


def test_serve_is_refused_with_one_message():
    r = run([sys.executable, "-m", "permuzzle", "serve", "--port", "0"], None)
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().count("\n") == 1
    assert "serve is not available from Python" in r.stderr.decode()


def wait_until_reading_stdin(pid, timeout=30):
    """Waits until the process blocks reading its stdin pipe (the kernel's wait channel), so that
    a signal finds it there, past the interpreter's start, however loaded the machine is."""
    wchan = pathlib.Path(f"/proc/{pid}/wchan")
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        if "pipe_read" in wchan.read_text():
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} never waited for stdin (wchan {wchan.read_text()!r})")


def test_ctrl_c_ends_the_command_like_the_program(cli):
    # Both wait for stdin ('-'); SIGINT ends them at once, killed by the signal, as a terminal's
    # Ctrl-C does (Python's own handler would only raise KeyboardInterrupt after the command).
    # The children start with SIGINT's default action, as a terminal's foreground job does: a test
    # run started in the background of a script inherits SIGINT ignored, and a program keeps
    # ignoring what it was started ignoring.
    def default_sigint():
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    codes = []
    for command in ([cli], [sys.executable, "-m", "permuzzle"]):
        with subprocess.Popen([*command, "group", "order", "-"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=default_sigint) as p:
            wait_until_reading_stdin(p.pid)
            p.send_signal(signal.SIGINT)
            codes.append(p.wait(timeout=10))
    assert codes == [-signal.SIGINT, -signal.SIGINT]


def test_main_prints_on_the_process_stdout(cli, capfd):
    print("before", flush=False)  # Python's own buffered text comes first
    code = permuzzle.main(["group", "order", "(1,2,3)", "(1,2)"])
    out, err = capfd.readouterr()
    expected = subprocess.run([cli, "group", "order", "(1,2,3)", "(1,2)"], capture_output=True,
                              text=True).stdout
    assert code == 0 and out == "before\n" + expected and err == ""
    assert permuzzle.main(["group", "order", "(1,2,3"]) == 2
    assert capfd.readouterr().err.startswith("permuzzle: error: ")


def test_main_takes_a_list_of_str(capfd):
    with pytest.raises(TypeError, match="list of str"):
        permuzzle.main(["group", "order", 3])
    with pytest.raises(TypeError, match="list of str"):
        permuzzle.main("group order (1,2)")  # a str is not split into arguments
    assert permuzzle.main(("group", "order", "(1,2)")) == 0  # any sequence
    assert capfd.readouterr().out.strip() == "2"


def test_submodules_import_like_modules():
    from permuzzle.sliding import Board  # noqa: PLC0415 (the import is what is tested)
    import permuzzle.cube  # noqa: PLC0415

    assert Board.__module__ == "permuzzle.sliding" and permuzzle.cube.solve is permuzzle.cube.solve
    assert permuzzle.Permutation.__module__ == "permuzzle"


# --- stubs and docstrings ------------------------------------------------------------------

def public_names():
    """(qualified name, object) of every public name: the package's, its classes' members,
    the helper submodules' functions and classes (names without a leading underscore)."""
    found = []

    def visit(prefix, owner, names):
        for name in names:
            obj = inspect.getattr_static(owner, name)
            found.append((prefix + name, getattr(owner, name)))
            if inspect.isclass(obj):
                members = [m for m in vars(obj) if not m.startswith("_") or m == "__init__"]
                for m in members:
                    found.append((f"{prefix}{name}.{m}", getattr(obj, m)))
            elif inspect.ismodule(obj):
                visit(f"{prefix}{name}.", obj, [n for n in vars(obj) if not n.startswith("_")])

    visit("permuzzle.", permuzzle, permuzzle.__all__)
    return found


def described(obj):
    """The docstring without pybind11's signature lines ("f(x: int) -> int", "Overloaded
    function.", "1. f(...)")."""
    doc = obj.__doc__
    if isinstance(obj, property) and doc == obj.fget.__doc__:
        doc = ""  # only the getter's signature
    lines = [line for line in (doc or "").splitlines()
             if line.strip() and "->" not in line and line.strip() != "Overloaded function."]
    return "\n".join(lines).strip()


def stub_names():
    """Every name the .pyi stubs declare, qualified like public_names()."""
    names = set()

    def visit(prefix, body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(prefix + node.name)
                if isinstance(node, ast.ClassDef):
                    visit(f"{prefix}{node.name}.", node.body)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(prefix + node.target.id)
            elif isinstance(node, ast.ImportFrom):
                names.update(prefix + (a.asname or a.name) for a in node.names)

    for stub in PACKAGE_DIR.glob("*.pyi"):
        module = "permuzzle." if stub.stem == "__init__" else f"permuzzle.{stub.stem}."
        visit(module, ast.parse(stub.read_text()).body)
    return names


def test_every_public_name_has_a_docstring():
    names = public_names()
    assert len(names) > 60  # the classes' members are included
    undocumented = [name for name, obj in names if not described(obj)]
    assert undocumented == []


def test_every_public_name_is_in_the_stubs():
    stubs = stub_names()
    missing = [name for name, _ in public_names() if name not in stubs]
    assert missing == []


def test_stubs_agree_with_the_module(tmp_path):
    # mypy's stubtest imports the package and compares every stub with what it finds.
    pytest.importorskip("mypy.stubtest")
    env = {**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "mypy-cache")}
    if PACKAGE_DIR.parent.resolve() not in [pathlib.Path(p).resolve() for p in site.getsitepackages()]:
        # A build tree's package (PYTHONPATH, maybe relative to another directory).
        env["MYPYPATH"] = env["PYTHONPATH"] = str(PACKAGE_DIR.parent)
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "permuzzle"], capture_output=True,
                       text=True, cwd=tmp_path, timeout=300, env=env)
    assert r.returncode == 0, r.stdout + r.stderr


# --- the installation ----------------------------------------------------------------------

installed = pytest.mark.skipif(
    not os.environ.get("PERMUZZLE_TEST_INSTALLED"),
    reason="PERMUZZLE_TEST_INSTALLED is not set (make python-tests sets it after pip install)")


@installed
def test_imported_from_a_virtual_environment_installation():
    assert sys.prefix != sys.base_prefix  # a venv
    assert PACKAGE_DIR.is_relative_to(pathlib.Path(sys.prefix).resolve())
    assert importlib.metadata.version("permuzzle") == permuzzle.__version__
    for name in ("__init__.pyi", "py.typed", "__main__.py"):
        assert (PACKAGE_DIR / name).is_file(), name


@installed
def test_installed_package_reads_its_own_data(tmp_path):
    # The package carries data/ and points the engine at it: in a copy of the installed package
    # whose korf100.txt is gone, `bench korf100` names the copy's missing file, not the source
    # tree's data/ (which the engine would read otherwise).
    assert (PACKAGE_DIR / "data" / "korf100.txt").read_bytes() == (
        pathlib.Path(__file__).resolve().parents[2] / "data" / "korf100.txt").read_bytes()
    copy = tmp_path / "site" / "permuzzle"
    shutil.copytree(PACKAGE_DIR, copy)
    (copy / "data" / "korf100.txt").unlink()
    env = {k: v for k, v in os.environ.items() if k != "PERMUZZLE_DATA"}
    env["PYTHONPATH"] = str(tmp_path / "site")
    r = subprocess.run([sys.executable, "-m", "permuzzle", "bench", "korf100", "--first", "1"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert f"cannot read the instance file {copy / 'data' / 'korf100.txt'}" in r.stderr


def test_version_is_the_programs(cli):
    out = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "permuzzle " + permuzzle.__version__
