# The module is found through PYTHONPATH (the Makefile's python-tests target sets it to
# build/release/python); the CLI, for comparing messages, through PERMUZZLE_CLI.
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
