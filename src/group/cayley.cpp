#include "permuzzle/group/cayley.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace permuzzle {

namespace {

// Elements padded to the group's degree so that equal permutations compare equal as keys.
// `extra_per_element` bytes per element are checked against the run's memory budget with the
// list itself (the table's rows, the graph's edges), before anything is allocated.
Result<std::vector<Perm>> padded_elements(const PermGroup& group, std::uint64_t limit,
                                          const RunContext* run, std::uint64_t extra_per_element,
                                          const std::string& what) {
  if (run && group.order() <= mpz_class(std::to_string(limit))) {
    const std::uint64_t count = group.order().get_ui();
    const std::uint64_t per = 2 * group.element_bytes() + extra_per_element;
    const std::uint64_t bytes = count > UINT64_MAX / per ? UINT64_MAX : count * per;
    if (auto s = run->check_memory(bytes, what); !s) return s.error();
  }
  auto elements = group.elements(limit, run);
  if (!elements) return elements.error();
  std::vector<Perm> result;
  result.reserve(elements->size());
  for (const Perm& e : *elements) result.push_back(e.extended(group.degree()));
  return result;
}

// Polls the stop request every 256 calls.
bool stop_now(const RunContext* run, std::uint64_t i) {
  return run && (i & 255) == 0 && run->should_stop();
}

std::uint32_t index_of(const std::vector<Perm>& sorted, const Perm& x) {
  return static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), x) -
                                    sorted.begin());
}

}  // namespace

Result<CayleyTable> cayley_table(const PermGroup& group, std::uint64_t limit,
                                 const RunContext* run) {
  // A row of 4-byte entries per element (order^2 in all), and its name.
  const std::uint64_t order =
      group.order() <= mpz_class(std::to_string(limit)) ? group.order().get_ui() : 0;
  const std::uint64_t row_bytes = order > UINT64_MAX / 8 ? UINT64_MAX / 2 : order * 4 + 64;
  auto elements =
      padded_elements(group, limit, run, row_bytes,
                      "the Cayley table of a group of order " + group.order().get_str());
  if (!elements) return elements.error();
  CayleyTable table;
  table.elements = std::move(*elements);
  std::size_t n = group.degree();
  for (const Perm& e : table.elements) table.names.push_back(e.to_cycle_string());
  table.product.assign(table.elements.size(), std::vector<std::uint32_t>(table.elements.size()));
  for (std::size_t i = 0; i < table.elements.size(); ++i) {
    if (run && run->should_stop()) return run->stop_error();
    for (std::size_t j = 0; j < table.elements.size(); ++j) {
      Perm p = (table.elements[i] * table.elements[j]).extended(n);
      table.product[i][j] = index_of(table.elements, p);
    }
  }
  return table;
}

std::string format_cayley_table(const CayleyTable& table) {
  std::size_t width = 1;
  for (const auto& name : table.names) width = std::max(width, name.size());
  auto pad = [&](const std::string& s) { return s + std::string(width - s.size(), ' '); };
  std::string out = pad("*") + " |";
  for (const auto& name : table.names) out += " " + pad(name);
  out += "\n" + std::string(width + 1, '-') + "+" +
         std::string(table.names.size() * (width + 1), '-') + "\n";
  for (std::size_t i = 0; i < table.names.size(); ++i) {
    out += pad(table.names[i]) + " |";
    for (std::uint32_t j : table.product[i]) out += " " + pad(table.names[j]);
    out += "\n";
  }
  return out;
}

Result<CayleyGraph> cayley_graph(const PermGroup& group, std::vector<Perm> connection,
                                 std::vector<std::string> connection_names, bool directed,
                                 std::uint64_t limit, const RunContext* run) {
  // Step 1. The connection set X (default: the generators) must lie in G.
  if (connection.empty()) {
    connection = group.generators();
    connection_names = group.generator_names();
  }
  if (connection_names.empty()) {
    for (std::size_t i = 0; i < connection.size(); ++i) {
      connection_names.push_back(connection[i].to_cycle_string());
    }
  }
  if (connection_names.size() != connection.size()) {
    return make_error("got " + std::to_string(connection_names.size()) + " names for " +
                      std::to_string(connection.size()) + " connection elements");
  }
  for (const Perm& x : connection) {
    if (!group.contains(x)) {
      return make_error("the connection element " + x.to_cycle_string() +
                            " is not in the group, so Cay(G, X) is not defined",
                        x.to_cycle_string());
    }
  }
  // Step 2. Vertices and edges g -> g*x.
  // Per vertex: its edges (12 bytes each, plus a map node each when undirected), its name, its
  // union-find parent and component.
  const std::uint64_t per_vertex =
      static_cast<std::uint64_t>(connection.size()) * (directed ? 12 : 12 + 64) + 64 + 8;
  auto elements =
      padded_elements(group, limit, run, per_vertex,
                      "the Cayley graph of a group of order " + group.order().get_str());
  if (!elements) return elements.error();
  CayleyGraph graph;
  graph.elements = std::move(*elements);
  graph.connection = std::move(connection);
  graph.connection_names = std::move(connection_names);
  graph.directed = directed;
  std::size_t n = group.degree();
  for (const Perm& e : graph.elements) graph.names.push_back(e.to_cycle_string());
  std::vector<std::uint32_t> parent(graph.elements.size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, bool> seen;  // undirected: one edge a pair
  for (std::uint32_t v = 0; v < graph.elements.size(); ++v) {
    if (stop_now(run, v)) return run->stop_error();
    for (std::uint32_t l = 0; l < graph.connection.size(); ++l) {
      std::uint32_t w =
          index_of(graph.elements, (graph.elements[v] * graph.connection[l]).extended(n));
      parent[find(v)] = find(w);
      if (!directed) {
        auto key = std::minmax(v, w);
        if (!seen.emplace(std::make_pair(key.first, key.second), true).second) continue;
      }
      graph.edges.push_back({v, w, l});
    }
  }
  // Step 3. Components (the left cosets of <X>), numbered by their smallest vertex.
  std::map<std::uint32_t, std::uint32_t> root_index;
  graph.component.resize(graph.elements.size());
  for (std::uint32_t v = 0; v < graph.elements.size(); ++v) {
    auto [it, fresh] = root_index.emplace(find(v), static_cast<std::uint32_t>(root_index.size()));
    graph.component[v] = it->second;
  }
  graph.component_count = root_index.size();
  return graph;
}

std::string to_dot(const CayleyGraph& graph) {
  static const char* COLORS[] = {"red",   "blue",  "darkgreen", "orange", "purple",
                                 "brown", "cyan4", "magenta",   "gold3",  "black"};
  const std::size_t color_count = sizeof(COLORS) / sizeof(COLORS[0]);
  std::string connection;
  for (std::size_t i = 0; i < graph.connection_names.size(); ++i) {
    connection += (i ? ", " : "") + graph.connection_names[i];
  }
  std::string out = "// Cayley " + std::string(graph.directed ? "digraph" : "graph") + " Cay(G, {" +
                    connection + "}): " + std::to_string(graph.elements.size()) + " vertices, " +
                    std::to_string(graph.edges.size()) + " edges, " +
                    std::to_string(graph.component_count) + " connected component" +
                    (graph.component_count == 1 ? "" : "s") + "\n";
  out += graph.directed ? "digraph Cayley {\n" : "graph Cayley {\n";
  out += "  node [shape=box, fontname=\"monospace\"];\n";
  // One cluster per component (coset) when there are several, so GraphViz draws them apart.
  bool clusters = graph.component_count > 1;
  for (std::size_t c = 0; c < graph.component_count; ++c) {
    if (clusters) {
      out += "  subgraph cluster_" + std::to_string(c) + " {\n    label=\"coset " +
             std::to_string(c + 1) + "\";\n";
    }
    for (std::size_t v = 0; v < graph.elements.size(); ++v) {
      if (graph.component[v] == c) {
        out += std::string(clusters ? "    " : "  ") + "v" + std::to_string(v) + " [label=\"" +
               graph.names[v] + "\"];\n";
      }
    }
    if (clusters) out += "  }\n";
  }
  const char* arrow = graph.directed ? " -> " : " -- ";
  for (const CayleyEdge& e : graph.edges) {
    out += "  v" + std::to_string(e.from) + arrow + "v" + std::to_string(e.to) +
           " [color=" + COLORS[e.label % color_count] + ", label=\"" +
           graph.connection_names[e.label] + "\"];\n";
  }
  out += "}\n";
  return out;
}

}  // namespace permuzzle
