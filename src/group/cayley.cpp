#include "permuzzle/group/cayley.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace permuzzle {

namespace {

// Elements padded to the group's degree so that equal permutations compare equal as keys.
Result<std::vector<Perm>> padded_elements(const PermGroup& group, std::size_t limit) {
  auto elements = group.elements(limit);
  if (!elements) return elements.error();
  std::vector<Perm> result;
  for (const Perm& e : *elements) result.push_back(e.extended(group.degree()));
  return result;
}

std::uint32_t index_of(const std::vector<Perm>& sorted, const Perm& x) {
  return static_cast<std::uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), x) -
                                    sorted.begin());
}

}  // namespace

Result<CayleyTable> cayley_table(const PermGroup& group, std::size_t limit) {
  auto elements = padded_elements(group, limit);
  if (!elements) return elements.error();
  CayleyTable table;
  table.elements = std::move(*elements);
  std::size_t n = group.degree();
  for (const Perm& e : table.elements) table.names.push_back(e.to_cycle_string());
  table.product.assign(table.elements.size(), std::vector<std::uint32_t>(table.elements.size()));
  for (std::size_t i = 0; i < table.elements.size(); ++i) {
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
                                 std::size_t limit) {
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
  auto elements = padded_elements(group, limit);
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
