// Helpers shared by the command families of the API layer.
#include "common.hpp"

#include <algorithm>
#include <sstream>

namespace permuzzle::api {

Result<Perm> parse_perm_param(const std::string& text, const std::string& what,
                              std::size_t offset) {
  auto p = Perm::parse(std::string_view(text).substr(offset));
  if (!p) {
    Error e = p.error();
    e.message = what + ": " + e.message;
    e.input = text;
    if (e.position != Error::NO_POSITION) e.position += offset;
    return e;
  }
  return p;
}

nlohmann::json points_json(const std::vector<Point>& points) {
  nlohmann::json list = nlohmann::json::array();
  for (Point p : points) list.push_back(p + 1);
  return list;
}

std::string points_text(const std::vector<Point>& points, const char* open, const char* close) {
  std::string s = open;
  for (std::size_t i = 0; i < points.size(); ++i)
    s += (i ? "," : "") + std::to_string(points[i] + 1);
  return s + close;
}

std::string with_commas(const std::string& digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

RunContext with_threads(const Request& q, const Session& s) {
  RunContext run = s.run;
  if (q.has("threads")) run.with_threads(static_cast<unsigned>(q.unsigned_integer("threads")));
  return run;
}

Param threads_option() {
  return with_range(
      option("threads", ParamType::Unsigned, "Worker threads (default: every hardware thread)"), 1,
      256);
}

void add_distribution_json(nlohmann::json& out,
                           const std::optional<search::DistributedBfsStats>& distribution) {
  if (!distribution) return;
  out["processes"] = distribution->processes;
  out["bytes_sent"] = distribution->bytes_sent;
  out["positions_sent"] = distribution->ranks_sent;
  out["level_seconds"] = distribution->level_seconds;
  out["message_buffer_bytes"] = distribution->buffer_limit;
  out["message_buffer_peak_bytes"] = distribution->buffer_peak;
}

std::string with_commas(std::uint64_t v) {
  return with_commas(std::to_string(v));
}

std::vector<std::string> split_list(std::string list) {
  std::replace(list.begin(), list.end(), ',', ' ');
  std::istringstream in(list);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string distance_chart_svg(const std::string& title,
                               const std::vector<std::uint64_t>& histogram) {
  const int w = 800, h = 420, left = 70, bottom = 50, top = 40, right = 20;
  std::uint64_t peak = 1;
  for (auto c : histogram) peak = std::max(peak, c);
  const double bar_w =
      static_cast<double>(w - left - right) / static_cast<double>(histogram.size());
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" "
      "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"24\" font-size=\"16\">{}</text>\n",
      w, h, left, title);
  const int plot_h = h - top - bottom;
  for (std::size_t d = 0; d < histogram.size(); ++d) {
    double bh = static_cast<double>(histogram[d]) / static_cast<double>(peak) * plot_h;
    double x = left + d * bar_w;
    s += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill=\"#4477aa\"><title>"
        "distance {}: {} positions</title></rect>\n",
        x + 0.5, h - bottom - bh, std::max(bar_w - 1.0, 0.5), bh, d, with_commas(histogram[d]));
    if (histogram.size() <= 40 || d % 5 == 0) {
      s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       x + bar_w / 2, h - bottom + 16, d);
    }
  }
  s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", left,
                   h - bottom, w - right, h - bottom);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">distance (moves)</text>\n",
                   (left + w - right) / 2, h - 12);
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", left - 6, top + 4,
                   with_commas(peak));
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text>\n", left - 6, h - bottom);
  s += "</svg>\n";
  return s;
}

}  // namespace permuzzle::api
