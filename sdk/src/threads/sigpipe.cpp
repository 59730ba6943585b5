#include "threads/sigpipe.hpp"

#include <pthread.h>
#include <signal.h>

namespace claude::sdk::detail {
namespace {
thread_local bool sigpipe_blocked = false;
}

void block_sigpipe_on_this_thread() noexcept {
  sigset_t pipe_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigpipe_blocked = pthread_sigmask(SIG_BLOCK, &pipe_set, nullptr) == 0;
}

bool sigpipe_blocked_on_this_thread() noexcept {
  return sigpipe_blocked;
}

}  // namespace claude::sdk::detail
