# Unity batches of the engine, shared by the main project and the fuzz harnesses (fuzz/), so
# that both compile the very same batches: a batch shares one anonymous namespace, and only
# these batches are known to compile together.
set(PERMUZZLE_CORE_UNITY_BATCH 8)  # src/core, group, search, puzzles
set(PERMUZZLE_API_UNITY_BATCH 6)   # src/api
# The tests (main project only) in batches too: each test file keeps its names in a namespace
# named after the file, so that a batch shares none.
set(PERMUZZLE_TESTS_UNITY_BATCH 8)  # tests/
# The files compiled alone: their namespace-scope `using namespace` of a puzzle's namespace (or,
# in words.cpp, a chain's Level and Entry) would change what the names of the next files in a
# batch mean. Marked here for the directory that includes this file.
set(PERMUZZLE_UNITY_SKIP src/api/loopover.cpp src/api/loopover_bench.cpp src/api/sliding.cpp
                         src/group/words.cpp src/puzzles/sliding/pdb.cpp)
list(TRANSFORM PERMUZZLE_UNITY_SKIP PREPEND ${CMAKE_CURRENT_LIST_DIR}/../)
set_source_files_properties(${PERMUZZLE_UNITY_SKIP} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
