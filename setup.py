"""Builds the extension permuzzle._native with the project's CMake (pyproject.toml is the rest).

The CMake build directory is $PERMUZZLE_BUILD_DIR when set (e.g. build/release, so that an
already built tree is reused: only the extension's target is brought up to date), else
build/python-package, configured like the `release` preset (CMakePresets.json) with only the
extension's targets (no tests, benchmarks or program), so that ccache serves what another build
compiled. The package also carries data/ (the committed data files), so that an installed
permuzzle needs no source tree.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    """The version in CMakeLists.txt's project() line: one place for the CLI and the package."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(permuzzle VERSION ([0-9.]+)", text)
    if not match:
        raise RuntimeError("no project(permuzzle VERSION ...) line in CMakeLists.txt")
    return match.group(1)


def release_preset():
    """The generator and cache variables of CMakePresets.json's `release` preset."""
    presets = {p["name"]: p for p in json.loads((ROOT / "CMakePresets.json").read_text())[
        "configurePresets"]}
    generator, variables, name = None, {}, "release"
    while name:
        preset = presets[name]
        variables = {**preset.get("cacheVariables", {}), **variables}
        generator = generator or preset.get("generator")
        name = preset.get("inherits")
    return generator, variables


def cached_interpreter(cache):
    """The real path of the interpreter a configured build dir is for, else None."""
    if cache.exists():
        for line in cache.read_text().splitlines():
            if line.startswith("Python3_EXECUTABLE:"):
                return os.path.realpath(line.partition("=")[2])
    return None


class CMakeBuild(build_ext):
    """Runs CMake for the target permuzzle_python and copies what it made into the package."""

    def build_extension(self, ext):
        given = os.environ.get("PERMUZZLE_BUILD_DIR")
        build_dir = pathlib.Path(given) if given else ROOT / "build" / "python-package"
        if not build_dir.is_absolute():
            build_dir = ROOT / build_dir
        # The interpreter the extension is for: the one running this build; in a virtual
        # environment its base interpreter (the venv may be gone when the build dir is reused).
        python = getattr(sys, "_base_executable", None) or sys.executable
        options = ["-DPERMUZZLE_BUILD_PYTHON=ON"]
        cache = build_dir / "CMakeCache.txt"
        if cached_interpreter(cache) != os.path.realpath(python):
            options.append(f"-DPython3_EXECUTABLE={python}")
        if not cache.exists():
            generator, variables = release_preset()
            if generator:
                options += ["-G", generator]
            options += [f"-D{k}={v}" for k, v in variables.items()]
            if not given:
                options += ["-DPERMUZZLE_BUILD_TESTS=OFF", "-DPERMUZZLE_BUILD_BENCH=OFF",
                            "-DPERMUZZLE_BUILD_CLI=OFF"]
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), *options], check=True,
                       stdout=subprocess.DEVNULL)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "permuzzle_python",
                        "-j", jobs], check=True)

        built_package = build_dir / "python" / "permuzzle"
        suffix = self.get_ext_filename("_native")[len("_native"):]
        extension = built_package / ("_native" + suffix)
        if not extension.exists():
            raise RuntimeError(f"CMake did not make {extension} (built for another Python?)")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(extension, target)
        if not self.inplace:  # an in-place build uses the source tree's data/ as it is
            data = target.parent / "data"
            shutil.rmtree(data, ignore_errors=True)
            # The data files only: data/puzzles/geometry.py makes definitions, it is not one.
            shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns("*.py"))


setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["permuzzle"],
    package_data={"permuzzle": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("permuzzle._native", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own work files go beside CMake's, not over the presets' build/<name>/.
    options={"build": {"build_base": "build/setuptools"}},
    zip_safe=False,
)
