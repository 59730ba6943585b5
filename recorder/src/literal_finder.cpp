#include "claude/recorder/literal_finder.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <cstddef>
#include <cstdint>

namespace claude::recorder {
namespace {

bool is_ascii_letter(unsigned char c) {
  return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

}  // namespace

LiteralFinder::LiteralFinder(std::string_view literal, bool ignore_case)
    : literal_(literal), fold_(literal.size(), '\0'), ignore_case_(ignore_case) {
  if (!ignore_case) return;
  for (std::size_t j = 0; j < literal_.size(); ++j) {
    const auto c = static_cast<unsigned char>(literal_[j]);
    if (is_ascii_letter(c)) {
      literal_[j] = static_cast<char>(c | 0x20);
      fold_[j] = 0x20;
    }
  }
}

bool LiteralFinder::matches_at(const unsigned char* p) const noexcept {
  for (std::size_t j = 0; j < literal_.size(); ++j) {
    if ((p[j] | static_cast<unsigned char>(fold_[j])) != static_cast<unsigned char>(literal_[j])) {
      return false;
    }
  }
  return true;
}

#if defined(__x86_64__)
// The SSE2 loop below with 32 candidate starts per step; returns the first start it did not
// look at, or kFound.
__attribute__((target("avx2,bmi"))) std::size_t LiteralFinder::scan_avx2(
    const unsigned char* p, std::size_t last_start) const noexcept {
  const std::size_t m = literal_.size();
  const __m256i first = _mm256_set1_epi8(static_cast<char>(literal_.front()));
  const __m256i last = _mm256_set1_epi8(static_cast<char>(literal_.back()));
  const __m256i fold_first = _mm256_set1_epi8(static_cast<char>(fold_.front()));
  const __m256i fold_last = _mm256_set1_epi8(static_cast<char>(fold_.back()));
  std::size_t i = 0;
  for (; i + 32 <= last_start + 1; i += 32) {
    const __m256i a =
        _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), fold_first);
    const __m256i b = _mm256_or_si256(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + m - 1)), fold_last);
    auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_and_si256(_mm256_cmpeq_epi8(a, first), _mm256_cmpeq_epi8(b, last))));
    while (mask != 0) {
      if (matches_at(p + i + static_cast<std::size_t>(std::countr_zero(mask)))) return kFound;
      mask &= mask - 1;
    }
  }
  return i;
}
#endif

bool LiteralFinder::found_in(std::string_view text) const noexcept {
  const std::size_t m = literal_.size();
  if (m == 0) return true;
  if (text.size() < m) return false;
  const auto* const p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t last_start = text.size() - m;  // the last position the literal can start at
  std::size_t i = 0;
#if defined(__x86_64__)
  static const bool has_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi");
  if (has_avx2) {
    i = scan_avx2(p, last_start);
    if (i == kFound) return true;
  }
#endif
#if defined(__SSE2__)
  // Wojciech Muła's "generic SIMD" substring search: 16 candidate starts per step.
  const __m128i first = _mm_set1_epi8(literal_.front());
  const __m128i last = _mm_set1_epi8(literal_.back());
  const __m128i fold_first = _mm_set1_epi8(fold_.front());
  const __m128i fold_last = _mm_set1_epi8(fold_.back());
  for (; i + 16 <= last_start + 1; i += 16) {
    const __m128i a =
        _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), fold_first);
    const __m128i b =
        _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + m - 1)), fold_last);
    auto mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
    while (mask != 0) {
      if (matches_at(p + i + static_cast<std::size_t>(std::countr_zero(mask)))) return true;
      mask &= mask - 1;
    }
  }
#endif
  for (; i <= last_start; ++i) {
    if (matches_at(p + i)) return true;
  }
  return false;
}

}  // namespace claude::recorder
