#include "claude/conformance/progress_line.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace claude::conformance {
namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(250);
constexpr std::string_view kEraseLine = "\r\x1b[K";

}  // namespace

bool is_interactive_terminal(int fd) {
  if (::isatty(fd) == 0) return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::string_view(term) != "dumb";
}

ProgressLine::ProgressLine(std::ostream& out, std::string label, std::size_t total, bool enabled,
                           std::string failed_word)
    : out_(out),
      label_(std::move(label)),
      failed_word_(std::move(failed_word)),
      total_(total),
      enabled_(enabled) {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    redraw_locked();
  }
  ticker_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_requested_.notify_all();
  ticker_.join();
  out_ << kEraseLine << std::flush;
}

void ProgressLine::advance(bool failed) {
  std::lock_guard lock(mutex_);
  ++done_;
  if (failed) ++failed_;
  if (enabled_) redraw_locked();
}

void ProgressLine::print_above(std::string_view text) {
  std::lock_guard lock(mutex_);
  if (enabled_) out_ << kEraseLine;
  out_ << text;
  if (enabled_) {
    redraw_locked();
  } else {
    out_ << std::flush;
  }
}

std::string ProgressLine::status() const {
  std::lock_guard lock(mutex_);
  return status_locked();
}

std::string ProgressLine::status_locked() const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  char clock[32];
  std::snprintf(clock, sizeof clock, "%.1f s", elapsed);
  std::string line = label_ + " " + std::to_string(done_);
  if (total_ > 0) line += "/" + std::to_string(total_);
  if (failed_ > 0) line += " · " + std::to_string(failed_) + " " + failed_word_;
  return line + " · " + clock;
}

void ProgressLine::redraw_locked() {
  out_ << kEraseLine << status_locked() << std::flush;
}

void ProgressLine::tick() {
  std::unique_lock lock(mutex_);
  while (!stop_requested_.wait_for(lock, kRedrawEvery, [this] { return stopping_; })) {
    redraw_locked();
  }
}

}  // namespace claude::conformance
