// harness: replay, record and VCR-style runs around a command, plus convert/lint/diff.
#include <iostream>

#include "claude/harness/harness_cli.hpp"

int main(int argc, char** argv) {
  return claude::harness::run_harness(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                      std::cerr);
}
