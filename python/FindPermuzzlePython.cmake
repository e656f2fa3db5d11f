# Finds the interpreter the module is built for, then pybind11 (in FindPython mode, so that it
# uses the same interpreter). Debian's /usr/bin/python3 is preferred: it has the Debian packages
# (pytest) the tests need, while a python3 earlier on PATH (pyenv) may not. Override with
# -DPython3_EXECUTABLE=...
if(EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Interpreter of the Python module")
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
if(Python3_FOUND)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 CONFIG QUIET)
endif()
