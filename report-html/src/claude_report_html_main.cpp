#include <iostream>
#include <string>
#include <vector>

#include "claude/report_html/report_html_cli.hpp"

int main(int argc, char** argv) {
  return claude::report_html::run_report_html_cli(std::vector<std::string>(argv + 1, argv + argc),
                                                  std::cout, std::cerr);
}
