// write_gathered (emulator/src/process/gathered_write.hpp): every piece in order through partial
// writes and more pieces than one writev(2) takes, and the count of whole pieces when it stops.
#include "process/gathered_write.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using claude::emulator::detail::write_gathered;

struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) ::close(read);
    if (write >= 0) ::close(write);
  }
};

std::vector<std::string> numbered_pieces(std::size_t count) {
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < count; ++i) {
    // Some empty, some longer than the pipe, the rest a few bytes.
    const std::size_t size = i % 7 == 3 ? 0 : i % 97 == 5 ? 9000 : 1 + i % 13;
    pieces.push_back(std::string(size, static_cast<char>('a' + i % 26)) +
                     (size > 0 ? std::to_string(i) : ""));
  }
  return pieces;
}

std::vector<std::string_view> views(const std::vector<std::string>& pieces) {
  return {pieces.begin(), pieces.end()};
}

TEST(GatheredWrite, EveryPieceInOrderThroughPartialWrites) {
  const std::vector<std::string> pieces = numbered_pieces(3000);  // more than IOV_MAX (1024)
  std::string expected;
  for (const auto& piece : pieces) expected += piece;
  Pipe pipe;
  ::fcntl(pipe.write, F_SETPIPE_SZ, 4096);  // the writer blocks and resumes many times
  std::string received;
  std::thread reader([&] {
    char buffer[1000];
    for (ssize_t n; (n = ::read(pipe.read, buffer, sizeof buffer)) > 0;) {
      received.append(buffer, static_cast<std::size_t>(n));
    }
  });
  const auto pieces_view = views(pieces);
  EXPECT_EQ(write_gathered(pipe.write, pieces_view), pieces.size());
  ::close(pipe.write);
  pipe.write = -1;
  reader.join();
  EXPECT_EQ(received.size(), expected.size());
  EXPECT_TRUE(received == expected);
}

void on_interrupt(int) {}

// A signal that lands while writev(2) waits for room in the pipe ends the call: with EINTR
// before any byte went, with a short count after some did. Both are resumed where they stopped.
TEST(GatheredWrite, ResumesAfterSignalsCutWritesShort) {
  struct sigaction action {};
  action.sa_handler = on_interrupt;  // no SA_RESTART: the signal ends a blocked writev
  sigemptyset(&action.sa_mask);
  struct sigaction previous {};
  ASSERT_EQ(::sigaction(SIGUSR1, &action, &previous), 0);
  const std::vector<std::string> pieces = numbered_pieces(3000);
  std::string expected;
  for (const auto& piece : pieces) expected += piece;
  Pipe pipe;
  ::fcntl(pipe.write, F_SETPIPE_SZ, 4096);
  std::string received;
  std::thread reader([&] {
    char buffer[700];
    for (ssize_t n; (n = ::read(pipe.read, buffer, sizeof buffer)) > 0;) {
      received.append(buffer, static_cast<std::size_t>(n));
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  });
  std::atomic<bool> done{false};
  const pthread_t writer = ::pthread_self();
  std::thread interrupter([&] {
    while (!done.load()) {
      ::pthread_kill(writer, SIGUSR1);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  const auto pieces_view = views(pieces);
  const std::size_t written = write_gathered(pipe.write, pieces_view);
  done.store(true);
  interrupter.join();
  ::close(pipe.write);
  pipe.write = -1;
  reader.join();
  ::sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_EQ(written, pieces.size());
  EXPECT_EQ(received.size(), expected.size());
  EXPECT_TRUE(received == expected);
}

TEST(GatheredWrite, NothingToWriteIsAllWritten) {
  Pipe pipe;
  EXPECT_EQ(write_gathered(pipe.write, {}), 0u);
  const std::vector<std::string_view> empty{"", ""};
  EXPECT_EQ(write_gathered(pipe.write, empty), 2u);
}

TEST(GatheredWrite, CountsOnlyWholePiecesWhenTheDescriptorStopsTakingBytes) {
  Pipe pipe;
  ASSERT_GE(::fcntl(pipe.write, F_SETPIPE_SZ, 4096), 4096);
  const int capacity = ::fcntl(pipe.write, F_GETPIPE_SZ);
  ASSERT_EQ(::fcntl(pipe.write, F_SETFL, O_NONBLOCK), 0);
  // The first piece fits, the second only in part: one whole piece, then EAGAIN.
  const std::string first(static_cast<std::size_t>(capacity) - 100, 'x');
  const std::string second(300, 'y');
  const std::string third(10, 'z');
  const std::vector<std::string_view> pieces{first, second, third};
  errno = 0;
  EXPECT_EQ(write_gathered(pipe.write, pieces), 1u);
  EXPECT_EQ(errno, EAGAIN);
  std::string received(static_cast<std::size_t>(capacity) + 1000, '\0');
  const ssize_t n = ::read(pipe.read, received.data(), received.size());
  ASSERT_EQ(n, capacity);
  received.resize(static_cast<std::size_t>(n));
  EXPECT_TRUE(received == first + second.substr(0, 100));
}

TEST(GatheredWrite, AClosedReaderWritesNothing) {
  std::signal(SIGPIPE, SIG_IGN);
  Pipe pipe;
  ::close(pipe.read);
  pipe.read = -1;
  const std::vector<std::string_view> pieces{"a", "b"};
  errno = 0;
  EXPECT_EQ(write_gathered(pipe.write, pieces), 0u);
  EXPECT_EQ(errno, EPIPE);
}

TEST(GatheredWrite, AStopFlagSetByASignalEndsTheWriteBeforeItBlocks) {
  Pipe pipe;
  const volatile std::sig_atomic_t stop = 1;
  const std::vector<std::string_view> pieces{"never written\n"};
  errno = 0;
  EXPECT_EQ(write_gathered(pipe.write, pieces, &stop), 0u);
  EXPECT_EQ(errno, EINTR);
}

}  // namespace
