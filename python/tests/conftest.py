# The package under test is the one the interpreter imports: `make python-tests` installs it
# with pip into a fresh venv (and sets PERMUZZLE_TEST_INSTALLED); PYTHONPATH=build/release/python
# tests the build tree's copy. The CLI, for comparing output, is found through PERMUZZLE_CLI.
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("PERMUZZLE_CLI", ROOT / "build/release/permuzzle"))
    if not path.is_absolute():
        path = ROOT / path
    if not path.exists():
        pytest.skip("the permuzzle CLI is not built")
    return str(path)
