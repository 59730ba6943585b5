/* floor_responder: the floor of the control round-trip benchmark.
 *
 * Starts the CLI-side driver (argv[1..]) with two pipes, writes one `user` line to start it, and
 * answers every line that carries a request_id by copying the id into a fixed allow response —
 * no JSON parsing, no allocation, no threads. What is left is the cost of the pipes and wake-ups,
 * which no SDK can beat. Exit: the driver's exit status; 2 usage; 3 spawn failure. */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

static int write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0) {
    fputs(
        "floor_responder DRIVER [ARGS...]: answer the driver's control requests by copying "
        "their request_id\n",
        stderr);
    return argc < 2 ? 2 : 0;
  }
  int to_child[2], from_child[2];
  if (pipe(to_child) || pipe(from_child)) return 3;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
  posix_spawn_file_actions_addclose(&fa, to_child[1]);
  posix_spawn_file_actions_addclose(&fa, from_child[0]);
  pid_t pid;
  if (posix_spawn(&pid, argv[1], &fa, NULL, argv + 1, environ) != 0) return 3;
  close(to_child[0]);
  close(from_child[1]);
  signal(SIGPIPE, SIG_IGN);
  static const char kick[] =
      "{\"type\":\"user\",\"session_id\":\"\",\"message\":{\"role\":\"user\",\"content\":\"go\"},"
      "\"parent_tool_use_id\":null}\n";
  write_all(to_child[1], kick, sizeof kick - 1);

  static char buf[1 << 16];
  size_t have = 0;
  static const char key[] = "\"request_id\":\"";
  static const char head[] =
      "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"";
  static const char tail[] = "\",\"response\":{\"behavior\":\"allow\"}}}\n";
  char out[512];
  int saw_idle = 0;
  for (;;) {
    ssize_t n = read(from_child[0], buf + have, sizeof buf - have);
    if (n <= 0) break;
    have += (size_t)n;
    char* start = buf;
    char* nl;
    while ((nl = memchr(start, '\n', (size_t)(buf + have - start))) != NULL) {
      *nl = 0;
      char* id = strstr(start, key);
      if (id && strstr(start, "\"control_request\"")) {
        id += sizeof key - 1;
        char* end = strchr(id, '"');
        size_t len = end ? (size_t)(end - id) : 0;
        if (len > 0 && len < 256) {
          size_t o = 0;
          memcpy(out + o, head, sizeof head - 1);
          o += sizeof head - 1;
          memcpy(out + o, id, len);
          o += len;
          memcpy(out + o, tail, sizeof tail - 1);
          o += sizeof tail - 1;
          write_all(to_child[1], out, o);
        }
      } else if (strstr(start, "\"idle\"")) {
        saw_idle = 1;
      }
      start = nl + 1;
    }
    have = (size_t)(buf + have - start);
    memmove(buf, start, have);
    if (saw_idle) break;
  }
  close(to_child[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}
