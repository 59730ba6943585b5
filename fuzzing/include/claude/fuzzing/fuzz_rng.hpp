// FuzzRng: the fuzzer's only source of randomness, so a run is reproducible from `--seed`.
//
// What it is: SplitMix64 seeded from (run seed, stream). Exec n of a run uses stream n, so the
// scenario exec n plays does not depend on how many jobs ran or which finished first.
//
// How it fails: it does not. `below(0)` returns 0.
//
// What it costs: a few arithmetic instructions per draw.
#pragma once

#include <cstddef>
#include <cstdint>

namespace claude::fuzzing {

class FuzzRng {
 public:
  FuzzRng(std::uint64_t seed, std::uint64_t stream)
      : state_(seed * 0x9E3779B97F4A7C15ULL ^ (stream + 0x632BE59BD9B4E019ULL)) {
    next();
  }

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n).
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  // Uniform in [lo, hi].
  std::size_t between(std::size_t lo, std::size_t hi) { return lo + below(hi - lo + 1); }
  // True with probability num/den.
  bool chance(std::size_t num, std::size_t den) { return below(den) < num; }

 private:
  std::uint64_t state_;
};

}  // namespace claude::fuzzing
