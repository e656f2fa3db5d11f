// The compiled part of the Python package `permuzzle` (permuzzle._native; python/permuzzle/
// re-exports it): permutations and permutation groups over the C++ classes, every registry
// command through permuzzle.call(family, verb, **params), and the CLI itself through
// permuzzle.main(args) (`python -m permuzzle ...`).
//
// Conventions (python/README section in the top README, tested in python/tests/):
// - Permutation points are 0-based in Python (like SymPy: p(i), array_form, cyclic_form,
//   support()); every text form (repr, from_cycles, strings) is 1-based GAP notation.
// - p * q applies p first, then q (GAP and SymPy agree on this).
// - Registry errors raise ValueError with Error::describe(), the CLI's message;
//   ErrorKind::LimitExceeded raises permuzzle.LimitExceeded (a ValueError), Io raises OSError,
//   Internal RuntimeError; a call stopped by Ctrl-C raises KeyboardInterrupt. A run stopped by
//   its time limit (Output::stopped: the CLI prints what it knew and exits 3) raises
//   LimitExceeded too, with that output as a dict in the exception's `partial` attribute (None
//   when nothing ran). Text that is not UTF-8 (from a file) arrives with U+FFFD in its place.
// - `call` never grants host paths: a parameter naming a file on this machine (a checkpoint
//   directory, `bench ... --file`) is refused; files are given as text.
// - Calls run in a worker thread with the GIL released; the caller's thread polls for signals
//   every 50 ms and forwards progress to an optional Python callable.
#include <Python.h>
#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "permuzzle/api/registry.hpp"
#include "permuzzle/core/perm.hpp"
#include "permuzzle/core/rng.hpp"
#include "permuzzle/group/cayley.hpp"
#include "permuzzle/group/perm_group.hpp"
#include "permuzzle/puzzles/sliding/board.hpp"

namespace py = pybind11;
using namespace permuzzle;

namespace {

// Step 0. Module state: one registry and one table store for the process. Deliberately never
// destroyed: a worker thread abandoned after Ctrl-C (a solver that does not check its stop
// token) may still use them while the interpreter shuts down.
struct ModuleState {
  api::Registry registry = api::make_registry();
  TableStore store{api::default_tables_dir()};
  std::string data_dir = api::default_data_dir();
  PyObject* limit_exceeded = nullptr;  // permuzzle.LimitExceeded
};

ModuleState& state() {
  static ModuleState* s = new ModuleState();  // front-end state, leaked on purpose (see above)
  return *s;
}

// Text from the engine as a Python str. Bytes of the user's input that are not UTF-8 (a file
// name, a definition file's text) become U+FFFD, as in the CLI's --json: never an exception.
py::str text(const std::string& s) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
}

py::object to_python(const nlohmann::json& j);

// Raises the exception of the error's kind. `partial` is the output of a run stopped early
// (Output::stopped: what the command knew by then); LimitExceeded carries it as its `partial`
// attribute (None when the command was refused before it ran).
[[noreturn]] void raise(const Error& e, const nlohmann::json& partial = nullptr) {
  py::str message = text(e.describe());
  PyObject* type = PyExc_ValueError;
  switch (e.kind) {
    case ErrorKind::LimitExceeded: {
      py::object error = py::reinterpret_borrow<py::object>(state().limit_exceeded)(message);
      error.attr("partial") = partial.is_null() ? py::none() : to_python(partial);
      PyErr_SetObject(state().limit_exceeded, error.ptr());
      throw py::error_already_set();
    }
    case ErrorKind::Io:
      type = PyExc_OSError;
      break;
    case ErrorKind::Internal:
      type = PyExc_RuntimeError;
      break;
    case ErrorKind::Cancelled:
      PyErr_SetNone(PyExc_KeyboardInterrupt);
      throw py::error_already_set();
    default:
      break;
  }
  PyErr_SetObject(type, message.ptr());
  throw py::error_already_set();
}

template <class T>
T unwrap(Result<T> r) {
  if (!r) raise(r.error());
  return std::move(r).value();
}

// --- JSON <-> Python -----------------------------------------------------------------------

py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null:
      return py::none();
    case nlohmann::json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::json::value_t::string:
      return text(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& x : j) out.append(to_python(x));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [k, v] : j.items()) out[text(k)] = to_python(v);
      return out;
    }
    default:
      return py::none();
  }
}

// A str as the engine's bytes: UTF-8, with the bytes of a surrogate-escaped str (os.fsdecode's
// form of a file that is not UTF-8) given back as they were.
std::string bytes_of(const py::handle& h) {
  auto encoded = py::reinterpret_steal<py::object>(
      PyUnicode_AsEncodedString(h.ptr(), "utf-8", "surrogateescape"));
  if (!encoded) throw py::error_already_set();
  return encoded.cast<std::string>();
}

nlohmann::json to_json(const py::handle& h) {
  if (h.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(h)) return h.cast<bool>();
  if (py::isinstance<py::int_>(h)) {
    // Exact: int64, else uint64, else the decimal text (what BigInteger parameters take; any
    // other parameter type then reports the value as out of range).
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow == 0) return static_cast<std::int64_t>(v);
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (!PyErr_Occurred()) return static_cast<std::uint64_t>(u);
      PyErr_Clear();
    }
    return py::str(h).cast<std::string>();
  }
  if (py::isinstance<py::float_>(h)) return h.cast<double>();
  if (py::isinstance<py::str>(h)) return bytes_of(h);
  if (py::isinstance<py::dict>(h)) {
    nlohmann::json out = nlohmann::json::object();
    for (auto [k, v] : h.cast<py::dict>()) out[bytes_of(py::str(k))] = to_json(v);
    return out;
  }
  if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
    nlohmann::json out = nlohmann::json::array();
    for (auto x : h) out.push_back(to_json(x));
    return out;
  }
  // Permutations and anything else with a text form (repr is GAP notation for Permutation).
  if (py::hasattr(h, "_permuzzle_text")) return h.attr("_permuzzle_text")().cast<std::string>();
  throw py::type_error("cannot pass a " + py::type::of(h).attr("__name__").cast<std::string>() +
                       " to a permuzzle command");
}

// --- calls with the GIL released -----------------------------------------------------------

// Shared between the caller's thread and the worker; the worker holds it too so that a worker
// abandoned after an interrupt never touches freed memory.
struct CallState {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  std::optional<Result<api::Output>> result;
  std::deque<Progress> progress;  // reports not yet given to the Python callable
  std::stop_source stop;
};

// The CLI's global options as keywords of every call: time_limit (seconds, --time-limit) and
// memory (MB, --memory), unless the command has a parameter of that name itself.
struct RunLimits {
  std::optional<double> time_limit;
  std::uint64_t memory_budget = default_memory_budget();
};

RunLimits take_run_limits(const api::Command& c, nlohmann::json& params) {
  auto own = [&](const std::string& name) {
    std::string dashed = name;
    for (char& ch : dashed) ch = ch == '_' ? '-' : ch;
    for (const auto& p : c.params) {
      if (p.name == name || p.name == dashed) return true;
    }
    return false;
  };
  RunLimits limits;
  if (params.contains("time_limit") && !own("time_limit")) {
    const nlohmann::json v = params["time_limit"];
    params.erase("time_limit");
    if (!v.is_number()) raise(make_error("time_limit must be a number of seconds"));
    limits.time_limit = v.get<double>();
    if (auto ok = check_time_limit(*limits.time_limit, "time_limit"); !ok) raise(ok.error());
  }
  if (params.contains("memory") && !own("memory")) {
    const nlohmann::json v = params["memory"];
    params.erase("memory");
    if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() <= 0) ||
        v.get<std::uint64_t>() == 0 || v.get<std::uint64_t>() > (~std::uint64_t(0) >> 20)) {
      raise(
          make_error("memory must be a positive number of MB (a budget in bytes that fits in "
                     "64 bits), not " +
                     v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    }
    limits.memory_budget = v.get<std::uint64_t>() << 20;
  }
  return limits;
}

py::object call_registry(const std::string& family, const std::string& verb, nlohmann::json params,
                         const py::object& progress) {
  ModuleState& s = state();
  RunLimits limits;
  // Step 1. Parameters named like Python keywords (max_nodes) map to the CLI's names
  // (max-nodes) when the command has no parameter of the Python spelling.
  if (const api::Command* c = s.registry.find(family, verb)) {
    limits = take_run_limits(*c, params);
    nlohmann::json renamed = nlohmann::json::object();
    for (auto& [k, v] : params.items()) {
      std::string name = k;
      bool known = false;
      for (const auto& p : c->params) known = known || p.name == name;
      if (!known) {
        std::string dashed = name;
        for (char& ch : dashed) ch = ch == '_' ? '-' : ch;
        for (const auto& p : c->params) {
          if (p.name == dashed) name = dashed;
        }
      }
      // A single string for a repeated parameter (sliding's position) is a list of one.
      for (const auto& p : c->params) {
        if (p.name == name && p.type == api::ParamType::Strings && v.is_string()) {
          v = nlohmann::json::array({v});
        }
      }
      renamed[name] = v;
    }
    params = std::move(renamed);
  }

  // Step 2. Start the worker.
  auto st = std::make_shared<CallState>();
  const bool wants_progress = !progress.is_none();
  // The session never grants host paths (api::Session's default): a path in the parameters is
  // refused by the registry, files come as text (Puzzle, InputFile parameters).
  RunContext run;
  run.with_stop_token(st->stop.get_token());
  run.with_memory_budget(limits.memory_budget);
  if (limits.time_limit) run.with_time_limit(std::chrono::duration<double>(*limits.time_limit));
  if (wants_progress) {
    run.with_progress([st](const Progress& p) {
      std::lock_guard lock(st->mutex);
      if (st->progress.size() >= 1000) st->progress.pop_front();  // a slow callable drops old
      st->progress.push_back(p);
      st->cv.notify_all();
    });
  }
  std::thread worker([st, family, verb, params = std::move(params), run]() mutable {
    api::Session session{state().store, std::move(run), state().data_dir};
    auto r = state().registry.call(family, verb, params, session);
    std::lock_guard lock(st->mutex);
    st->result = std::move(r);
    st->done = true;
    st->cv.notify_all();
  });

  // Step 3. Wait in 50 ms slices with the GIL released; between slices hand progress to the
  // callable and check for signals (Ctrl-C).
  auto forward_progress = [&] {
    std::deque<Progress> batch;
    {
      std::lock_guard lock(st->mutex);
      batch.swap(st->progress);
    }
    for (const Progress& p : batch) {
      py::dict d;
      d["phase"] = p.phase;
      d["done"] = p.done;
      d["total"] = p.total;
      d["message"] = p.message;
      progress(d);
    }
  };
  auto wait_done = [&](std::chrono::milliseconds slice) {
    py::gil_scoped_release release;
    std::unique_lock lock(st->mutex);
    return st->cv.wait_for(lock, slice, [&] { return st->done || !st->progress.empty(); }) &&
           st->done;
  };
  // Stops the worker after an exception in Python: waits up to a second for it to notice,
  // then leaves it to finish alone (it only holds shared state).
  auto abandon = [&] {
    st->stop.request_stop();
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (std::chrono::steady_clock::now() < until && !wait_done(std::chrono::milliseconds(50))) {
    }
    bool finished;
    {
      std::lock_guard lock(st->mutex);
      finished = st->done;
    }
    if (finished) {
      worker.join();
    } else {
      worker.detach();
    }
  };
  while (true) {
    bool finished = wait_done(std::chrono::milliseconds(50));
    try {
      if (wants_progress) forward_progress();
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    } catch (...) {
      abandon();
      throw;
    }
    if (finished) break;
  }
  worker.join();

  // Step 4. The result: the CLI's --json object, plus the artifacts (SVG, DOT) by parameter. A
  // run stopped early (time limit) raises like the CLI's exit 3, with what it knew attached.
  api::Output out = unwrap(std::move(*st->result));
  if (!out.artifacts.empty()) {
    nlohmann::json artifacts = nlohmann::json::object();
    for (const auto& a : out.artifacts) artifacts[a.param] = a.content;
    out.json["artifacts"] = std::move(artifacts);
  }
  if (out.stopped) raise(*out.stopped, out.json);
  return to_python(out.json);
}

py::object call_py(const std::string& family, const std::string& verb, py::object progress,
                   const py::kwargs& params) {
  return call_registry(family, verb, to_json(params), progress);
}

// --- permutations --------------------------------------------------------------------------

mpz_class to_mpz(const py::handle& h) {
  return mpz_class(py::str(h).cast<std::string>(), 10);
}

py::int_ to_int(const mpz_class& z) {
  if (z.fits_slong_p()) return py::int_(z.get_si());
  return py::reinterpret_steal<py::int_>(PyLong_FromString(z.get_str().c_str(), nullptr, 10));
}

Perm perm_from(const py::handle& h) {
  if (py::isinstance<Perm>(h)) return h.cast<Perm>();
  if (py::isinstance<py::str>(h)) return unwrap(Perm::parse(h.cast<std::string>()));
  throw py::type_error("expected a Permutation or a string in GAP notation such as \"(1,2,3)\"");
}

std::vector<std::vector<Point>> orbits_of(const PermGroup& g) {
  return orbits(g.generators(), g.degree());
}

// A group as Python sees it: the C++ group and a random generator for random().
struct PyGroup {
  PermGroup group;
  std::shared_ptr<Rng> rng;
};

PyGroup make_group(const py::iterable& gens, std::optional<std::vector<std::string>> names) {
  std::vector<Perm> perms;
  for (auto g : gens) perms.push_back(perm_from(g));
  std::vector<std::string> n = names.value_or(std::vector<std::string>{});
  Result<PermGroup> r = [&] {
    py::gil_scoped_release release;  // Schreier–Sims on a large group takes a while
    return PermGroup::from_generators(std::move(perms), std::move(n));
  }();
  return PyGroup{unwrap(std::move(r)), std::make_shared<Rng>(std::random_device{}())};
}

py::list word_pairs(const PermGroup& g, const Word& w) {
  // Runs of the same generator merge into one (name, exponent) pair.
  py::list out;
  std::size_t i = 0;
  while (i < w.size()) {
    std::size_t gen = w[i].generator;
    long exponent = 0;
    while (i < w.size() && w[i].generator == gen) exponent += w[i++].exponent;
    if (exponent != 0) out.append(py::make_tuple(g.generator_names()[gen], exponent));
  }
  return out;
}

// The name of a command's first positional parameter (cube solve's facelets), so that the
// puzzle helpers follow the registry instead of repeating its parameter names.
std::string first_positional(const std::string& family, const std::string& verb) {
  if (const api::Command* c = state().registry.find(family, verb)) {
    for (const auto& p : c->params) {
      if (p.positional) return p.name;
    }
  }
  throw py::value_error("no positional parameter in '" + family + " " + verb + "'");
}

// A definition file's name and text; every method is a `def` registry command with the file as
// its InputFile parameter "file" (a scramble file may be passed as text: scramble=...).
struct DefinitionFile {
  std::string name;
  std::string text;

  static DefinitionFile from_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) raise(make_error("cannot read " + path, {}, Error::NO_POSITION, ErrorKind::Io));
    std::string text;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      text.append(buffer, static_cast<std::size_t>(in.gcount()));
      if (text.size() > api::MAX_INPUT_FILE_BYTES) throw py::value_error(path + " is too large");
    }
    return {path, std::move(text)};
  }

  py::object call(const std::string& verb, const py::object& progress,
                  const py::kwargs& params = {}) const {
    nlohmann::json j = to_json(params);
    j["file"] = {{"name", name}, {"text", text}};
    return call_registry("def", verb, std::move(j), progress);
  }
};

// A permutation from 0-based images (SymPy's array form), every image checked.
Perm perm_from_images(const std::vector<long long>& images) {
  std::vector<Point> v;
  for (long long x : images) {
    if (x < 0 || x >= static_cast<long long>(MAX_PARSE_DEGREE)) {
      throw py::value_error("image " + std::to_string(x) + " is out of range");
    }
    v.push_back(static_cast<Point>(x));
  }
  return unwrap(Perm::from_images(std::move(v)));
}

// A sliding-puzzle position for notebooks: text forms and an SVG drawing (_repr_svg_).
struct SlidingBoard {
  sliding::BoardSize size;
  sliding::Position cells;

  static SlidingBoard parse(const std::string& text, const std::optional<std::string>& size) {
    SlidingBoard b;
    std::optional<sliding::BoardSize> given;
    if (size) given = unwrap(sliding::parse_board_size(*size));
    b.cells = unwrap(sliding::parse_position(text, given, &b.size));
    if (given) b.size = *given;
    return b;
  }

  std::string svg() const {
    constexpr int CELL = 40;
    std::string out = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
        "font-family=\"sans-serif\" font-size=\"18\" text-anchor=\"middle\">",
        size.cols * CELL + 2, size.rows * CELL + 2);
    for (int i = 0; i < size.cells(); ++i) {
      int x = 1 + (i % size.cols) * CELL;
      int y = 1 + (i / size.cols) * CELL;
      if (cells[i] == 0) continue;  // the blank stays empty
      out += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"#f3e2b3\" "
          "stroke=\"#8a6d3b\"/><text x=\"{}\" y=\"{}\">{}</text>",
          x + 1, y + 1, CELL - 2, CELL - 2, x + CELL / 2, y + CELL / 2 + 6, int{cells[i]});
    }
    return out + "</svg>";
  }
};

// permuzzle.main: the CLI's run_cli on these arguments, with the GIL released (it touches no
// Python object). Arguments are given back as the bytes the shell passed (os.fsencode's form).
int run_command_line(const py::object& given) {
  py::list args;
  if (given.is_none()) {
    py::list argv = py::module_::import("sys").attr("argv");
    for (std::size_t i = 1; i < argv.size(); ++i) args.append(argv[i]);
  } else if (py::isinstance<py::str>(given) || !py::isinstance<py::sequence>(given)) {
    throw py::type_error("permuzzle.main takes a list of str (the arguments), not a " +
                         py::type::of(given).attr("__name__").cast<std::string>());
  } else {
    args = py::list(given);
  }
  std::vector<std::string> words{"permuzzle"};
  for (const py::handle& a : args) {
    if (!py::isinstance<py::str>(a)) {
      throw py::type_error("permuzzle.main takes a list of str, not a list holding a " +
                           py::type::of(a).attr("__name__").cast<std::string>());
    }
    words.push_back(bytes_of(a));
  }
  // What Python printed so far comes first.
  for (const char* stream : {"stdout", "stderr"}) {
    py::object file = py::module_::import("sys").attr(stream);
    if (!file.is_none()) file.attr("flush")();
  }
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  py::gil_scoped_release release;
  return cli::run_cli(static_cast<int>(words.size()), argv.data(), cli::add_serve_refusal);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() =
      "permuzzle: permutation puzzles and permutation groups (C++ engine).\n\n"
      "Points are 0-based in Python (like SymPy), 1-based in GAP text such as \"(1,2,3)\".\n"
      "p * q applies p first. call(family, verb, **params) runs any CLI command and returns its "
      "--json result.";
  m.attr("__version__") = PERMUZZLE_VERSION;  // the project's version (CMakeLists.txt)

  // Step 1. Exceptions.
  state().limit_exceeded = PyErr_NewExceptionWithDoc(
      "permuzzle.LimitExceeded",
      "A request too large for the chosen method, or past its time, memory or node limit "
      "(the CLI's exit code 3). `partial`: the output of a run stopped by its time limit (what "
      "it knew by then), or None.",
      PyExc_ValueError, nullptr);
  m.attr("LimitExceeded") = py::handle(state().limit_exceeded);

  // Step 2. Permutation.
  py::class_<Perm>(m, "Permutation",
                   "A permutation. Permutation([2, 0, 1]) takes 0-based images (SymPy's array "
                   "form); Permutation(\"(1,2,3)\") or Permutation.from_cycles(...) take GAP "
                   "notation (1-based).")
      .def(py::init<>(), "The identity.")
      .def(py::init(&perm_from_images), py::arg("array_form"),
           "From 0-based images (SymPy's array form): Permutation([2, 0, 1]).")
      .def(py::init([](const std::string& text) { return unwrap(Perm::parse(text)); }),
           py::arg("text"), "From GAP cycle or list notation, 1-based: \"(1,2,3)\", \"[2,3,1]\".")
      .def_static(
          "from_cycles", [](const std::string& text) { return unwrap(Perm::parse_cycles(text)); },
          py::arg("text"), "From GAP cycle notation, 1-based: \"(1,2,3)(4,5)\".")
      .def_static(
          "from_cyclic_form",
          [](const std::vector<std::vector<Point>>& cycles, std::size_t size) {
            std::vector<std::vector<Point>> one_based = cycles;
            for (auto& c : one_based) {
              for (auto& p : c) ++p;
            }
            return unwrap(Perm::from_cycles(one_based, size));
          },
          py::arg("cycles"), py::arg("size") = 0, "From 0-based cycles like SymPy's cyclic_form.")
      .def(
          "__call__", [](const Perm& p, Point i) { return p.image(i); }, py::arg("i"),
          "Image of the 0-based point i (like SymPy).")
      .def(
          "__mul__", [](const Perm& a, const Perm& b) { return a * b; }, py::is_operator(),
          "p * q applies p first, then q.")
      .def("__invert__", &Perm::inverse, "The inverse.")
      .def("inverse", &Perm::inverse, "The inverse (also ~p and p**-1).")
      .def(
          "__pow__",
          [](const Perm& p, const py::int_& k) {
            int overflow = 0;
            long long e = PyLong_AsLongLongAndOverflow(k.ptr(), &overflow);
            return overflow == 0 ? p.pow(e) : p.pow(to_mpz(k));
          },
          "p**k for any integer k (negative: powers of the inverse).")
      .def("__xor__", &Perm::conjugate, "p ^ q = q**-1 * p * q (GAP's p^q).")
      .def(
          "commutator", [](const Perm& a, const Perm& b) { return commutator(a, b); },
          py::arg("other"), "The commutator p**-1 * q**-1 * p * q (GAP's Comm(p, q)).")
      .def("__eq__", [](const Perm& a, const Perm& b) { return a == b; })
      .def("__eq__", [](const Perm&, const py::object&) { return false; })
      .def("__ne__", [](const Perm& a, const Perm& b) { return a != b; })
      .def("__ne__", [](const Perm&, const py::object&) { return true; })
      .def("__lt__", [](const Perm& a, const Perm& b) { return a < b; })
      .def("__hash__",
           [](const Perm& p) {
             // Equal permutations of different degree must hash alike: hash the moved part.
             std::size_t n = p.largest_moved_point();
             std::size_t h = 1469598103934665603ull;
             for (std::size_t i = 0; i < n; ++i) h = (h ^ p.images()[i]) * 1099511628211ull;
             return h;
           })
      .def("__repr__", &Perm::to_cycle_string)
      .def("__str__", &Perm::to_cycle_string)
      .def("_permuzzle_text", &Perm::to_cycle_string)
      .def("cycle_string", &Perm::to_cycle_string, "GAP cycle notation, \"()\" for the identity.")
      .def("list_string", &Perm::to_list_string, py::arg("degree") = 0,
           "GAP list notation, 1-based: \"[2,3,1]\".")
      .def(
          "order", [](const Perm& p) { return to_int(p.order()); },
          "The smallest k > 0 with p**k the identity.")
      .def("sign", &Perm::sign, "+1 for even, -1 for odd.")
      .def(
          "parity", [](const Perm& p) { return p.sign() == 1 ? 0 : 1; },
          "0 for even, 1 for odd (like SymPy).")
      .def("is_identity", &Perm::is_identity, "True for the identity.")
      .def_property_readonly("is_Identity", &Perm::is_identity,
                             "True for the identity (SymPy's name).")
      .def_property_readonly("cyclic_form", &Perm::cycles, "Nontrivial cycles, 0-based.")
      .def_property_readonly("array_form", &Perm::images, "0-based images of 0..size-1.")
      .def_property_readonly("size", &Perm::degree,
                             "The degree: the number of points it is defined on (SymPy's size).")
      .def("cycle_type", &Perm::cycle_type,
           "The lengths of its cycles, fixed points as cycles of length 1.")
      .def("support", &Perm::support, "Moved points, 0-based, ascending.")
      .def(
          "to_sympy",
          [](const Perm& p) {
            return py::module_::import("sympy.combinatorics").attr("Permutation")(p.images());
          },
          "The same permutation as a sympy.combinatorics.Permutation (needs SymPy).")
      .def_static(
          "from_sympy",
          [](const py::object& q) {
            return perm_from_images(q.attr("array_form").cast<std::vector<long long>>());
          },
          py::arg("permutation"), "From a sympy.combinatorics.Permutation.");
  py::implicitly_convertible<py::str, Perm>();

  // Step 3. PermutationGroup.
  py::class_<PyGroup>(m, "PermutationGroup",
                      "A group generated by Permutations or GAP strings; a base and strong "
                      "generating set (Schreier–Sims) is computed on construction.")
      .def(py::init(&make_group), py::arg("generators"), py::arg("names") = py::none(),
           "From Permutations or GAP strings; names: one per generator (default a, b, ...).")
      .def(
          "order", [](const PyGroup& g) { return to_int(g.group.order()); },
          "The number of elements (exact, any size).")
      .def(
          "cardinality", [](const PyGroup& g) { return to_int(g.group.order()); },
          "The number of elements (SymPy's name for order()).")
      .def(
          "__len__",
          [](const PyGroup& g) -> std::size_t {
            mpz_class o = g.group.order();
            if (!o.fits_slong_p()) throw std::overflow_error("order does not fit; use order()");
            return o.get_si();
          },
          "The order, when it fits in a Python index (else OverflowError: use order()).")
      .def(
          "contains", [](const PyGroup& g, const Perm& x) { return g.group.contains(x); },
          py::arg("element"), "Is the permutation (or GAP string) an element? (sifting)")
      .def(
          "__contains__", [](const PyGroup& g, const Perm& x) { return g.group.contains(x); },
          py::arg("element"), "x in G: contains(x).")
      .def(
          "is_transitive",
          [](const PyGroup& g) {
            auto o = orbits_of(g.group);
            return o.size() <= 1;
          },
          "Transitive on the points 0..degree-1.")
      .def(
          "orbits", [](const PyGroup& g) { return orbits_of(g.group); },
          "Orbits on 0..degree-1, 0-based, each sorted, singletons included.")
      .def(
          "orbit",
          [](const PyGroup& g, Point i) {
            for (auto& o : orbits_of(g.group)) {
              for (Point p : o) {
                if (p == i) return o;
              }
            }
            return std::vector<Point>{i};
          },
          py::arg("point"), "The orbit of a 0-based point, sorted.")
      .def(
          "stabilizer",
          [](const PyGroup& g, Point i) {
            PermGroup s = [&] {
              py::gil_scoped_release release;
              return g.group.stabilizer(i);
            }();
            return PyGroup{std::move(s), std::make_shared<Rng>(std::random_device{}())};
          },
          py::arg("point"), "The stabilizer of a 0-based point.")
      .def(
          "schreier_sims", [](const PyGroup&) {}, "No-op: the chain is built on construction.")
      .def(
          "to_sympy",
          [](const PyGroup& g) {
            py::module_ combinatorics = py::module_::import("sympy.combinatorics");
            py::list gens;
            std::size_t degree = std::max<std::size_t>(g.group.degree(), 1);
            for (const Perm& p : g.group.generators()) {
              std::vector<Point> images = p.images();
              for (std::size_t i = images.size(); i < degree; ++i) images.push_back(Point(i));
              gens.append(combinatorics.attr("Permutation")(images));
            }
            if (gens.empty()) gens.append(combinatorics.attr("Permutation")(std::vector<int>{0}));
            return combinatorics.attr("PermutationGroup")(gens);
          },
          "The same group as a sympy.combinatorics.PermutationGroup (needs SymPy).")
      .def_static(
          "from_sympy",
          [](const py::object& group) {
            py::list gens;
            for (const py::handle& q : group.attr("generators")) {
              gens.append(perm_from_images(q.attr("array_form").cast<std::vector<long long>>()));
            }
            return make_group(gens, std::nullopt);
          },
          py::arg("group"), "From a sympy.combinatorics.PermutationGroup.")
      .def_property_readonly(
          "base", [](const PyGroup& g) { return g.group.base(); },
          "The base of the stabilizer chain, 0-based points.")
      .def_property_readonly(
          "strong_gens", [](const PyGroup& g) { return g.group.strong_generators(); },
          "A strong generating set relative to base.")
      .def_property_readonly(
          "degree", [](const PyGroup& g) { return g.group.degree(); },
          "The number of points the group acts on.")
      .def_property_readonly(
          "generators", [](const PyGroup& g) { return g.group.generators(); },
          "The generators as given.")
      .def(
          "gens", [](const PyGroup& g) { return g.group.generators(); },
          "The generators as given (a list; like the generators property).")
      .def_property_readonly(
          "generator_names", [](const PyGroup& g) { return g.group.generator_names(); },
          "The generators' names, as words use them.")
      .def(
          "random",
          [](const PyGroup& g, std::optional<std::uint64_t> seed) {
            if (seed) {
              Rng rng(*seed);
              return g.group.random_element(rng);
            }
            return g.group.random_element(*g.rng);
          },
          py::arg("seed") = py::none(), "A uniformly random element (reproducible with seed).")
      .def(
          "random_element",
          [](const PyGroup& g, std::optional<std::uint64_t> seed) {
            if (seed) {
              Rng rng(*seed);
              return g.group.random_element(rng);
            }
            return g.group.random_element(*g.rng);
          },
          py::arg("seed") = py::none(), "A uniformly random element (SymPy's name for random).")
      .def(
          "generate",
          [](const PyGroup& g, std::size_t limit) { return unwrap(g.group.elements(limit)); },
          py::arg("limit") = 100000, "All elements, sorted (ValueError past limit).")
      .def(
          "structure", [](const PyGroup& g) { return g.group.describe().structure; },
          "E.g. \"S10 x S6\", or \"order N\" when not recognised.")
      .def(
          "word",
          [](const PyGroup& g, const Perm& x) {
            Word w = unwrap(g.group.word(x));
            return word_pairs(g.group, w);
          },
          py::arg("element"), "[(generator_name, exponent), ...], verified by multiplying back.")
      .def(
          "word_string",
          [](const PyGroup& g, const Perm& x) {
            Word w = unwrap(g.group.word(x));
            return w.empty() ? std::string("()") : g.group.word_to_string(w);
          },
          py::arg("element"), "The element as a word in the generators' names, \"()\" for none.")
      .def(
          "cayley_graph",
          [](const PyGroup& g, bool directed, std::size_t limit) {
            return to_dot(unwrap(cayley_graph(g.group, {}, {}, directed, limit)));
          },
          py::arg("directed") = true, py::arg("limit") = 2000, "GraphViz DOT text.")
      .def("__repr__", [](const PyGroup& g) {
        std::string s = "PermutationGroup([";
        for (std::size_t i = 0; i < g.group.generators().size(); ++i) {
          s += (i ? ", " : "") + g.group.generators()[i].to_cycle_string();
        }
        return s + "])";
      });

  // Step 4. The registry.
  m.def("call", &call_py, py::arg("family"), py::arg("verb"), py::kw_only(),
        py::arg("progress") = py::none(),
        "Runs a registry command (the CLI's `permuzzle FAMILY VERB ...`) and returns its --json "
        "result as dicts and lists. Parameters are the CLI's names (max_nodes for "
        "--max-nodes). progress: optional callable given dicts {phase, done, total, message}. "
        "time_limit=SECONDS and memory=MB are the CLI's global --time-limit and --memory "
        "(default budget: 3/4 of physical memory). Errors raise ValueError with the CLI's "
        "message; over a limit permuzzle.LimitExceeded, whose `partial` attribute holds what a "
        "run stopped by its time limit knew (the CLI's output before exit 3; e.g. \"complete\": "
        "false with a partial histogram), else None. Paths on this machine are never read or "
        "written for a command (checkpoint directories and bench --file are refused).");
  m.def("main", &run_command_line, py::arg("args") = py::none(),
        "Runs the permuzzle command line on args (default: sys.argv[1:]), e.g. "
        "main([\"group\", \"order\", \"(1,2,3)\", \"(1,2)\"]), and returns its exit code (0 "
        "success, 1 I/O or internal failure, 2 bad input, 3 over a limit). It prints exactly "
        "what the permuzzle program prints, on the process's standard output and error (file "
        "descriptors 1 and 2, not sys.stdout); `python -m permuzzle ...` is this function. "
        "`serve` is refused (it needs the program). Ctrl-C is seen when it returns (`python -m "
        "permuzzle` ends at once, as the program does).");
  m.def(
      "commands", [] { return to_python(state().registry.describe()); },
      "Every command with its parameters (the CLI's `--json commands`).");
  m.def(
      "tables_dir", [] { return state().store.dir(); },
      "The table cache shared by all calls ($PERMUZZLE_TABLES, else ~/.cache/permuzzle).");

  // Step 5. Puzzle helpers.
  py::module_ sliding = m.def_submodule("sliding", "Sliding-tile puzzles (8-, 15-, 24-puzzle).");
  sliding.def(
      "solve",
      [](const std::string& position, py::object progress, const py::kwargs& params) {
        nlohmann::json j = to_json(params);
        j["position"] = position;
        return call_registry("sliding", "solve", std::move(j), progress);
      },
      py::arg("position"), py::kw_only(), py::arg("progress") = py::none(),
      "permuzzle.sliding.solve(\"8 1 2 / 0 4 3 / 7 6 5\", heuristic=...): the CLI's "
      "`sliding solve` as a dict.");
  py::class_<SlidingBoard>(sliding, "Board",
                           "A sliding-puzzle position, e.g. Board(\"8 6 7 / 2 5 4 / 3 0 1\"); "
                           "drawn as SVG in notebooks.")
      .def(py::init(&SlidingBoard::parse), py::arg("position"), py::arg("size") = py::none(),
           "From the CLI's position text; size (\"4x4\") when the text does not give it.")
      .def_property_readonly(
          "rows", [](const SlidingBoard& b) { return b.size.rows; }, "The number of rows.")
      .def_property_readonly(
          "cols", [](const SlidingBoard& b) { return b.size.cols; }, "The number of columns.")
      .def_property_readonly(
          "tiles",
          [](const SlidingBoard& b) { return std::vector<int>(b.cells.begin(), b.cells.end()); },
          "The tiles row by row, 0 for the blank.")
      .def("__str__",
           [](const SlidingBoard& b) { return sliding::format_grid_line(b.size, b.cells); })
      .def("__repr__",
           [](const SlidingBoard& b) {
             return "Board(\"" + sliding::format_grid_line(b.size, b.cells) + "\")";
           })
      .def("__eq__", [](const SlidingBoard& a,
                        const SlidingBoard& b) { return a.size == b.size && a.cells == b.cells; })
      .def("_repr_svg_", &SlidingBoard::svg)
      .def(
          "apply",
          [](const SlidingBoard& b, const std::string& moves) {
            SlidingBoard out = b;
            unwrap(sliding::apply_moves(out.size, out.cells, moves));
            return out;
          },
          py::arg("moves"), "The board after moves (tiles \"3 12 1\" or blank directions \"U L\").")
      .def(
          "solve",
          [](const SlidingBoard& b, py::object progress, const py::kwargs& params) {
            nlohmann::json j = to_json(params);
            j["position"] = nlohmann::json::array({sliding::format_grid_line(b.size, b.cells)});
            j["size"] = sliding::to_string(b.size);
            return call_registry("sliding", "solve", std::move(j), progress);
          },
          py::kw_only(), py::arg("progress") = py::none(), "sliding.solve of this board.");

  py::module_ loopover = m.def_submodule("loopover", "Loopover puzzles.");
  loopover.def(
      "solve",
      [](const std::string& position, py::object progress, const py::kwargs& params) {
        nlohmann::json j = to_json(params);
        j["position"] = position;
        return call_registry("loopover", "solve", std::move(j), progress);
      },
      py::arg("position"), py::kw_only(), py::arg("progress") = py::none(),
      "The CLI's `loopover solve` as a dict.");

  py::module_ cube = m.def_submodule("cube", "The Rubik's cube.");
  cube.def(
      "solve",
      [](py::object facelets, py::object progress, const py::kwargs& params) {
        nlohmann::json j = to_json(params);
        if (!facelets.is_none()) {
          j[first_positional("cube", "solve")] = facelets.cast<std::string>();
        }
        return call_registry("cube", "solve", std::move(j), progress);
      },
      py::arg("facelets") = py::none(), py::kw_only(), py::arg("progress") = py::none(),
      "permuzzle.cube.solve(\"UUUUUUUUURRR...\") or cube.solve(moves=\"R U R' U'\"): the CLI's "
      "`cube solve` as a dict (moves, length, optimal, verified).");

  // Any puzzle from a definition file (ksolve/twsearch text or KPuzzle JSON): the `def` family.
  py::class_<DefinitionFile>(m, "Puzzle",
                             "A puzzle from a definition file: Puzzle.from_file(\"x.tws\") or "
                             "Puzzle(text); info(), bfs(), solve(), random(), apply().")
      .def(py::init([](std::string text, std::string name) {
             return DefinitionFile{std::move(name), std::move(text)};
           }),
           py::arg("text"), py::arg("name") = "definition",
           "From a definition's text; name is how messages call it.")
      .def_static("from_file", &DefinitionFile::from_file, py::arg("path"),
                  "Reads a definition file (ksolve/twsearch text or KPuzzle JSON).")
      .def_property_readonly(
          "name", [](const DefinitionFile& d) { return d.name; },
          "The file's name (as messages show it).")
      .def_property_readonly(
          "text", [](const DefinitionFile& d) { return d.text; }, "The definition's text.")
      .def(
          "info",
          [](const DefinitionFile& d, py::object progress, const py::kwargs& params) {
            return d.call("info", progress, params);
          },
          py::kw_only(), py::arg("progress") = py::none(), "`def info` as a dict.")
      .def(
          "bfs",
          [](const DefinitionFile& d, py::object progress, const py::kwargs& params) {
            return d.call("bfs", progress, params);
          },
          py::kw_only(), py::arg("progress") = py::none(),
          "`def bfs` as a dict (histogram, complete, max_distance, antipodes).")
      .def(
          "solve",
          [](const DefinitionFile& d, py::object progress, const py::kwargs& params) {
            return d.call("solve", progress, params);
          },
          py::kw_only(), py::arg("progress") = py::none(),
          "`def solve` as a dict: solve(moves=\"R U R'\") or solve(scramble=text); "
          "phases=\"auto\" or a phase file's text solves in phases (docs/def-phases.md).")
      .def(
          "random",
          [](const DefinitionFile& d, py::object progress, const py::kwargs& params) {
            return d.call("random", progress, params);
          },
          py::kw_only(), py::arg("progress") = py::none(), "`def random` as a dict.")
      .def(
          "apply",
          [](const DefinitionFile& d, py::object progress, const py::kwargs& params) {
            return d.call("apply", progress, params);
          },
          py::kw_only(), py::arg("progress") = py::none(), "`def apply` as a dict.")
      .def("__repr__", [](const DefinitionFile& d) { return "Puzzle(name=" + d.name + ")"; });
}
