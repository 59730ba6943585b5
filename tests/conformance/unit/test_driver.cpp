// A stand-in driver for run_driver's tests: what it does is chosen by argv[1].
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "observe") {
    if (const char* report = std::getenv("FAKE_CLAUDE_REPORT")) {
      std::ofstream(report) << R"({"report":1,"verdict":"pass"})";
    }
    std::printf("{\"obs\":\"start\",\"scenario\":\"%s\"}\n", std::getenv("FAKE_CLAUDE_SCENARIO"));
    std::printf("not json\n{\"obs\":\"end\",\"ok\":true}\n");
    std::fprintf(stderr, "some diagnostics\n");
    return 0;
  }
  if (mode == "exit") return std::atoi(argv[2]);
  if (mode == "hang") {
    std::printf("{\"obs\":\"start\"}\n");
    std::fflush(stdout);
    pause();
  }
  if (mode == "orphan") {
    // A grandchild that keeps the pipes open and never ends: the harness must not wait for it.
    if (fork() == 0) pause();
    std::printf("{\"obs\":\"end\",\"ok\":true}\n");
    return 0;
  }
  return 2;
}
