// Finding the real `claude` CLI for claude-tee to run, without ever finding claude-tee itself.
//
// Order: `CLAUDE_TEE_REAL_CLI` when set; otherwise every `claude` on PATH, then the places the
// official SDKs look (~/.npm-global/bin, /usr/local/bin, ~/.local/bin, ~/node_modules/.bin,
// ~/.yarn/bin, ~/.claude/local). A candidate must be an executable regular file (after
// symlinks) whose device and inode differ from claude-tee's own, so a `claude` symlink or hard
// link to claude-tee is skipped instead of recursing.
//
// How it fails: `locate_real_cli` throws RealCliError saying what was searched, or that
// CLAUDE_TEE_REAL_CLI points back at claude-tee or at nothing executable.
//
// What it costs: one stat(2) per candidate.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace claude::recorder {

class RealCliError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

// The identity of the file `path` resolves to, if it exists.
[[nodiscard]] std::optional<FileIdentity> file_identity(const std::filesystem::path& path);

struct RealCliSearch {
  std::optional<std::string> explicit_path;  // CLAUDE_TEE_REAL_CLI
  std::string path_variable;                 // PATH
  std::optional<std::string> home;           // HOME
  FileIdentity self;                         // claude-tee's own executable
};

// The candidates in search order (before any filtering).
[[nodiscard]] std::vector<std::filesystem::path> real_cli_candidates(const RealCliSearch& search);

[[nodiscard]] std::filesystem::path locate_real_cli(const RealCliSearch& search);

}  // namespace claude::recorder
