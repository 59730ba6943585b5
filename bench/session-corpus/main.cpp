// make-session-corpus: writes the benchmark session corpus (session_corpus.hpp) to a file.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "session_corpus.hpp"

namespace {

constexpr const char* kUsage =
    "usage: make-session-corpus [--mib N] [--seed S] OUT\n"
    "Writes a deterministic stream-json session of at least N MiB (default 64) to OUT.\n"
    "Exit codes: 0 written, 2 usage error or OUT not writable.\n";

}  // namespace

int main(int argc, char** argv) {
  std::size_t mib = 64;
  std::uint64_t seed = 1;
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if ((arg == "--mib" || arg == "--seed") && i + 1 < argc) {
      char* end = nullptr;
      const unsigned long long value = std::strtoull(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0') {
        std::cerr << "make-session-corpus: " << arg << " needs a number, got '" << argv[i] << "'\n";
        return 2;
      }
      (arg == "--mib" ? mib : seed) = value;
    } else if (!arg.empty() && arg[0] != '-' && out_path.empty()) {
      out_path = arg;
    } else {
      std::cerr << "make-session-corpus: unexpected argument '" << arg << "'\n" << kUsage;
      return 2;
    }
  }
  if (out_path.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string corpus = claude::bench::make_session_corpus(mib << 20, seed);
  std::ofstream out(out_path, std::ios::binary);
  if (!out.write(corpus.data(), static_cast<std::streamsize>(corpus.size())) || !out.flush()) {
    std::cerr << "make-session-corpus: cannot write " << out_path << "\n";
    return 2;
  }
  std::cerr << "make-session-corpus: wrote " << corpus.size() << " bytes to " << out_path << "\n";
  return 0;
}
