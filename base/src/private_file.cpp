#include "claude/base/private_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "claude/base/write_all.hpp"

namespace claude::base {
namespace {

constexpr std::string_view kRefused = "exists; files are never overwritten without --force";

std::string temporary_beside(const std::filesystem::path& path) {
  static std::atomic<unsigned> counter{0};
  return path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(++counter);
}

}  // namespace

std::optional<std::string> private_file_problem(const std::filesystem::path& path, bool replace) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (std::filesystem::is_directory(status)) return std::string(std::strerror(EISDIR));
  if (std::filesystem::exists(status) || std::filesystem::is_symlink(status)) {
    if (!replace) return std::string(kRefused);
  }
  const auto parent = path.parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
    return "directory " + parent.string() + " does not exist";
  }
  return std::nullopt;
}

std::optional<std::string> write_private_file(const std::filesystem::path& path,
                                              std::string_view text, bool replace) {
  if (auto problem = private_file_problem(path, replace)) return problem;
  const std::string temporary = temporary_beside(path);
  const int fd =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return std::string(std::strerror(errno));
  bool written = write_all(fd, text);
  int saved = errno;
  if (::close(fd) != 0 && written) {
    written = false;
    saved = errno;
  }
  bool placed = false;
  if (written) {
    // rename replaces a symlink at `path` itself; link never follows one and fails on EEXIST.
    placed = replace ? ::rename(temporary.c_str(), path.c_str()) == 0
                     : ::link(temporary.c_str(), path.c_str()) == 0;
    saved = errno;
  }
  if (!placed || !replace) ::unlink(temporary.c_str());
  if (placed) return std::nullopt;
  if (saved == EEXIST) return std::string(kRefused);
  return std::string(std::strerror(saved));
}

int open_private_file(const std::filesystem::path& path, bool replace, std::string& reason) {
  if (auto problem = private_file_problem(path, replace)) {
    reason = *problem;
    return -1;
  }
  if (replace) ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) reason = errno == EEXIST ? std::string(kRefused) : std::strerror(errno);
  return fd;
}

}  // namespace claude::base
