// The lines the parser's golden digests (tests/sdk/data/parser/golden_digests.txt) are taken
// over, and the digest itself.
//
// Lines: every file of tests/sdk/data (an .ndjson file line by line, any other file as one line)
// and of fuzz/corpus/fuzz_message_parser (one line each, as the fuzzer reads them), in name order,
// each followed by kMutations mutated copies: one to three bytes replaced, deleted or inserted
// from JSON's punctuation, or a space inserted (which keeps most lines valid and spaced). The
// generator is std::mt19937_64, whose output the standard fixes, so the list never varies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace claude::sdk::testing {

inline constexpr int kMutations = 40;

inline std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The seed lines, before mutation.
inline std::vector<std::string> seed_lines(const std::filesystem::path& source_dir) {
  std::vector<std::string> lines;
  for (const auto& path : files_in(source_dir / "tests/sdk/data")) {
    std::string text = read_all(path);
    if (path.extension() == ".ndjson") {
      std::size_t start = 0;
      while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
      }
    } else {
      if (!text.empty() && text.back() == '\n') text.pop_back();
      lines.push_back(std::move(text));
    }
  }
  for (const auto& path : files_in(source_dir / "fuzz/corpus/fuzz_message_parser")) {
    lines.push_back(read_all(path));
  }
  return lines;
}

// Every seed line followed by its mutations.
inline std::vector<std::string> golden_inputs(const std::filesystem::path& source_dir) {
  static const std::string kAlphabet = "\"\\{}[],: 0e-.a\n\tnul1";
  std::mt19937_64 rng(7);
  std::vector<std::string> out;
  for (const auto& line : seed_lines(source_dir)) {
    out.push_back(line);
    for (int k = 0; k < kMutations; ++k) {
      std::string m = line;
      const auto ops = 1 + rng() % 3;
      for (std::uint64_t op = 0; op < ops && !m.empty(); ++op) {
        const std::size_t at = rng() % m.size();
        switch (rng() % 4) {
          case 0:
            m[at] = kAlphabet[rng() % kAlphabet.size()];
            break;
          case 1:
            m.erase(at, 1);
            break;
          case 2:
            m.insert(at, 1, kAlphabet[rng() % kAlphabet.size()]);
            break;
          default:
            m.insert(at, 1, ' ');
            break;
        }
      }
      out.push_back(std::move(m));
    }
  }
  return out;
}

// FNV-1a, 64 bits.
inline std::uint64_t digest(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace claude::sdk::testing
