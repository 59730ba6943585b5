// harness: replay, record and VCR-style runs around a command, plus convert/lint/diff.
#include <iostream>

#include "claude/base/cli.hpp"
#include "claude/harness/harness_cli.hpp"

int main(int argc, char** argv) {
  return claude::harness::run_harness(claude::base::arguments(argc, argv), std::cout, std::cerr);
}
