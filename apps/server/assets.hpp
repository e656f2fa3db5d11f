// The web app's files (web/ in the source tree), compiled into the binary by
// embed_assets.cmake: the server looks a request path up here and never touches the disk.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace permuzzle::server {

struct Asset {
  std::string_view path;          // "/index.html", "/js/app.js", ...
  std::string_view content_type;  // from the file's extension
  std::string_view content;
};

// Every embedded file (generated: build/.../permuzzle_assets.cpp).
std::span<const Asset> assets();

}  // namespace permuzzle::server
