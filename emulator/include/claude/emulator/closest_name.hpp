// Closest names: "did you mean" help for a misspelt key, verb, message type or option.
//
// What it is: the optimal-string-alignment edit distance (insertions, deletions, substitutions
// and transpositions of adjacent characters: `tpye` is one edit from `type`), and the candidate
// nearest a word within a bound.
//
// How it fails: never; no candidate within the bound gives nullopt.
//
// What it costs: O(|a|·|b|) per pair; words of very different lengths are rejected early.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace claude::emulator {

// Edit distance of a and b; when their lengths differ by more than `cap`, max(|a|, |b|) without
// computing it (commander's early exit).
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap = 3);

// The candidate at the smallest distance from `word`, if that distance is at most `max_distance`
// and smaller than the word's length (a one-letter word is no typo of anything). Ties: the first.
std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates,
                                        std::size_t max_distance = 2);

}  // namespace claude::emulator
