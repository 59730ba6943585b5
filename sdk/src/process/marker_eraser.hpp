// MarkerEraser: takes the first occurrence of a marker out of a byte stream that arrives in
// pieces, and passes every other byte through unchanged and in order.
//
// SubprocessTransport::close() wakes a reader blocked on the CLI's stdout by writing a marker into
// that pipe; the reader erases it again, so what the CLI (or a grandchild) wrote is delivered
// exactly. Bytes that could be the start of the marker are held back until the next piece or
// finish() decides. Costs one copy of each piece; used only while the transport closes.
#pragma once
#include <string>
#include <string_view>

namespace claude::sdk::process {

class MarkerEraser {
 public:
  explicit MarkerEraser(std::string marker) : marker_(std::move(marker)) {}

  // Appends to `out` the bytes of `piece` (after any held back) that cannot be part of the marker.
  void feed(std::string_view piece, std::string& out);
  // The stream is over: appends what was held back.
  void finish(std::string& out);
  [[nodiscard]] bool erased() const { return erased_; }

 private:
  std::string marker_;
  std::string held_;
  bool erased_ = false;
};

}  // namespace claude::sdk::process
