// A stand-in for the real CLI in claude-tee's tests: echoes stdin, checksums what it received,
// and can end in the ways a CLI can (exit code, signal, forwarded SIGTERM).
//
//   --echo-to out|err|both   where each received chunk is written (default out)
//   --checksum-file PATH     at EOF, write "<bytes> <fnv1a64 hex>\n" of everything received
//   --exit N                 exit status after EOF (default 0)
//   --raise SIGNAL           after the first chunk is echoed, die by SIGNAL (number)
//   --term-handler           print "ready\n", then on SIGTERM print "got SIGTERM\n" and exit 42
//   --note TEXT              ignored (lets a test put arbitrary text on the CLI's argv)
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::_Exit(3);
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void on_term(int) {
  static const char kMsg[] = "got SIGTERM\n";
  (void)!::write(1, kMsg, sizeof kMsg - 1);
  ::_exit(42);
}

}  // namespace

int main(int argc, char** argv) {
  std::string echo_to = "out";
  const char* checksum_file = nullptr;
  int exit_code = 0;
  int raise_signal = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--echo-to" && i + 1 < argc) {
      echo_to = argv[++i];
    } else if (arg == "--checksum-file" && i + 1 < argc) {
      checksum_file = argv[++i];
    } else if (arg == "--exit" && i + 1 < argc) {
      exit_code = std::atoi(argv[++i]);
    } else if (arg == "--raise" && i + 1 < argc) {
      raise_signal = std::atoi(argv[++i]);
    } else if (arg == "--note" && i + 1 < argc) {
      ++i;
    } else if (arg == "--term-handler") {
      ::signal(SIGTERM, on_term);
      write_all(1, "ready\n", 6);
    } else {
      std::fprintf(stderr, "echo_child: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  std::uint64_t hash = 14695981039346656037ull;
  std::uint64_t total = 0;
  static char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(0, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const auto size = static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < size; ++i) {
      hash = (hash ^ static_cast<unsigned char>(buf[i])) * 1099511628211ull;
    }
    total += size;
    if (echo_to == "out" || echo_to == "both") write_all(1, buf, size);
    if (echo_to == "err" || echo_to == "both") write_all(2, buf, size);
    if (raise_signal != 0) {
      ::signal(raise_signal, SIG_DFL);
      ::raise(raise_signal);
    }
  }
  if (checksum_file != nullptr) {
    FILE* f = std::fopen(checksum_file, "w");
    if (f == nullptr) return 3;
    std::fprintf(f, "%" PRIu64 " %016" PRIx64 "\n", total, hash);
    std::fclose(f);
  }
  return exit_code;
}
