// `loopover export RxC` and `cube export`: definition files generated from the built-in models,
// so that the built-in solvers and the generic `def` engine can be checked against each other.
// Registered by register_def (after the loopover and cube families exist).
#include "common.hpp"
#include "def_common.hpp"
#include "permuzzle/puzzles/cube/cubie.hpp"
#include "permuzzle/puzzles/cube/facelets.hpp"
#include "permuzzle/puzzles/def/reader.hpp"
#include "permuzzle/puzzles/loopover/board.hpp"

namespace permuzzle::api {

namespace {

// A passive (state form) move from an active permutation of slots: the content of slot x goes
// to slot to[x] and its orientation changes by twist[x].
def::SetState passive(const std::vector<int>& to, const std::vector<int>& twist) {
  def::SetState s;
  s.perm.resize(to.size());
  s.ori.resize(to.size());
  for (std::size_t x = 0; x < to.size(); ++x) {
    s.perm[static_cast<std::size_t>(to[x])] = static_cast<std::uint8_t>(x);
    s.ori[static_cast<std::size_t>(to[x])] = static_cast<std::uint8_t>(twist[x]);
  }
  return s;
}

}  // namespace

// Loopover r x c: one set TILES (cells row-major), rows A.. shift right, columns a.. shift down
// (column 1 is a), as the built-in model's move_perm says.
def::Definition loopover_definition(loopover::BoardSize size) {
  def::Definition d;
  d.name = "loopover-" + loopover::format_size(size);
  d.sets.push_back({"TILES", size.cells(), 1});
  d.solved = d.identity();
  auto add = [&](const std::string& name, const loopover::Move& m) {
    const Perm p = loopover::move_perm(size, m).extended(static_cast<std::size_t>(size.cells()));
    std::vector<int> to(static_cast<std::size_t>(size.cells())), twist(to.size(), 0);
    for (std::size_t x = 0; x < to.size(); ++x)
      to[x] = static_cast<int>(p.image(static_cast<Point>(x)));
    def::State e;
    e.sets.push_back(passive(to, twist));
    d.base_moves.push_back({name, 1, std::move(e)});
  };
  for (int r = 0; r < size.rows; ++r) {
    add(std::string(1, static_cast<char>('A' + r)),
        loopover::Move{loopover::Axis::Row, static_cast<std::uint8_t>(r), 1});
  }
  for (int c = 0; c < size.cols; ++c) {
    add(std::string(1, static_cast<char>('a' + c)),
        loopover::Move{loopover::Axis::Column, static_cast<std::uint8_t>(c), 1});
  }
  auto ok = def::finish_definition(d, "loopover export");
  assert(ok.ok());
  (void)ok;
  return d;
}

// The 3x3x3 (sets CORNERS 8x3, EDGES 12x2; moves U R F D L B) or the 2x2x2 (CORNERS only; with
// `fixed_corner` the DBL corner is left out and the moves are U R F), from the cubie model:
// corners URF UFL ULB UBR DFR DLF DBL DRB, edges UR UF UL UB DR DF DL DB FR FL BL BR.
def::Definition cube_definition(int size, bool fixed_corner) {
  def::Definition d;
  d.name = size == 3 ? "3x3x3" : (fixed_corner ? "2x2x2-fixed-corner" : "2x2x2");
  constexpr int FIXED = 6;  // DBL
  const int corners = fixed_corner ? 7 : 8;
  d.sets.push_back({"CORNERS", corners, 3});
  if (size == 3) d.sets.push_back({"EDGES", 12, 2});
  d.solved = d.identity();
  const std::vector<std::string> faces =
      fixed_corner ? std::vector<std::string>{"U", "R", "F"}
                   : std::vector<std::string>{"U", "R", "F", "D", "L", "B"};
  auto effect = [&](const cube::CubieState& c) {
    std::vector<int> to, twist;
    for (int i = 0; i < 8; ++i) {
      if (fixed_corner && i == FIXED) continue;
      int target = c.r[static_cast<std::size_t>(i)];
      if (fixed_corner && target > FIXED) --target;
      to.push_back(target);
      twist.push_back(c.v[static_cast<std::size_t>(i)]);
    }
    def::State e;
    e.sets.push_back(passive(to, twist));
    if (size == 3) {
      std::vector<int> eto, eflip;
      for (int i = 0; i < 12; ++i) {
        eto.push_back(c.s[static_cast<std::size_t>(i)]);
        eflip.push_back(c.w[static_cast<std::size_t>(i)]);
      }
      e.sets.push_back(passive(eto, eflip));
    }
    return e;
  };
  for (const std::string& f : faces) {
    auto c = cube::from_sticker_perm(cube::move_perm(f));
    assert(c.ok());
    d.base_moves.push_back({f, 1, effect(*c)});
  }
  // The whole-cube rotations x, y, z as the file's symmetries (def solve's symmetry lookups);
  // not with a fixed corner, which they would move.
  if (!fixed_corner) {
    for (const std::string r : {"x", "y", "z"}) {
      auto c = cube::rigid_motion_cubies(cube::move_perm(r));
      assert(c.ok());
      d.rotations.push_back({r, 1, effect(*c)});
    }
  }
  auto ok = def::finish_definition(d, "cube export");
  assert(ok.ok());
  (void)ok;
  return d;
}

std::string cube_definition_text(int size) {
  return def::format_definition(cube_definition(size, false));
}

std::string loopover_definition_text(int rows, int cols) {
  return def::format_definition(loopover_definition(loopover::BoardSize{rows, cols}));
}

void register_def_exports(Registry& r) {
  Command loopover_export{
      "loopover",
      "export",
      "Print a definition file (ksolve/twsearch text format) of the RxC board, generated "
      "from the built-in model: rows A.. shift right, columns a.. shift down",
      {formerly_positional(
          required(option("size", ParamType::String, "Board size RxC, e.g. 3x3")))},
      [](const Request& q, Session&) -> Result<Output> {
        auto size = loopover::parse_size(q.string("size"));
        if (!size) return size.error();
        def::Definition d = loopover_definition(*size);
        Output out;
        out.text = def::format_definition(
            d, {"Loopover " + loopover::format_size(*size) +
                    ", written by `permuzzle loopover export` from the built-in model.",
                "Cells row-major; row moves A.. shift the row right, column moves a.. "
                "(column 1 = a) shift the column down."});
        out.json = {{"name", d.name}, {"definition", out.text}};
        return out;
      }};
  loopover_export.cost = Cost::Cheap;
  loopover_export.invalid_examples = {{{"size", "0x3"}}, {{"size", "big"}}};
  r.add(std::move(loopover_export));
  Command cube_export{
      "cube",
      "export",
      "Print a definition file (ksolve/twsearch text format) of the 3x3x3 or the 2x2x2, "
      "generated from the built-in cubie model",
      {with_choices(option("size", ParamType::String, "3 (3x3x3) or 2 (2x2x2)", "3"), {"2", "3"}),
       flag("fixed-corner", "2x2x2 only: keep the DBL corner fixed, moves U R F")},
      [](const Request& q, Session&) -> Result<Output> {
        const int size = q.string("size") == "2" ? 2 : 3;
        const bool fixed = q.flag("fixed-corner");
        if (fixed && size != 2) return make_error("--fixed-corner needs --size 2");
        def::Definition d = cube_definition(size, fixed);
        Output out;
        out.text = def::format_definition(
            d, {d.name + ", written by `permuzzle cube export` "
                         "from the built-in cubie model.",
                "Corners URF UFL ULB UBR DFR DLF DBL DRB" +
                    std::string(fixed ? " (DBL left out)" : "") +
                    (size == 3 ? "; edges UR UF UL UB DR DF DL DB FR FL BL BR." : "."),
                "Orientation: the twist of the cubie model (spec section 6)."});
        out.json = {{"name", d.name}, {"definition", out.text}};
        return out;
      }};
  cube_export.cost = Cost::Cheap;
  cube_export.invalid_examples = {{{"size", "4"}}, {{"size", "3"}, {"fixed-corner", true}}};
  r.add(std::move(cube_export));
}

}  // namespace permuzzle::api
