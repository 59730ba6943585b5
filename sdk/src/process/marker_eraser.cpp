#include "process/marker_eraser.hpp"

#include <algorithm>

namespace claude::sdk::process {

void MarkerEraser::feed(std::string_view piece, std::string& out) {
  if (erased_ || marker_.empty()) {
    out.append(piece);
    return;
  }
  held_.append(piece);
  const std::string_view text = held_;
  if (const std::size_t at = text.find(marker_); at != std::string_view::npos) {
    out.append(text.substr(0, at));
    out.append(text.substr(at + marker_.size()));
    erased_ = true;
    held_.clear();
    return;
  }
  // Keep the longest tail that is a proper prefix of the marker: the next piece may complete it.
  std::size_t keep = std::min(text.size(), marker_.size() - 1);
  while (keep > 0 && !std::string_view(marker_).starts_with(text.substr(text.size() - keep))) {
    --keep;
  }
  out.append(text.substr(0, text.size() - keep));
  held_.erase(0, text.size() - keep);
}

void MarkerEraser::finish(std::string& out) {
  out.append(held_);
  held_.clear();
}

}  // namespace claude::sdk::process
