// argv_echo: a stand-in CLI for the no-shell tests. Writes its arguments (argv[1..]) to the file
// named by $ARGV_ECHO_OUT, one JSON string per line, and exits 1 so an SDK never waits for it.
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
  const char* out = std::getenv("ARGV_ECHO_OUT");
  if (out == nullptr) return 2;
  std::ofstream file(out, std::ios::app);
  for (int i = 1; i < argc; ++i) file << nlohmann::json(argv[i]).dump() << '\n';
  return 1;
}
