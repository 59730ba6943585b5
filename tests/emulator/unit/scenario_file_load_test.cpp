// Scenario files are read in chunks; these tests hold that path to the reference: the same text
// loaded from memory (load_scenario_text) or read through a FIFO gives the same scenario, the same
// bytes and the same errors. Every step holds its bytes from the load on, so a file changed on
// disk during a replay does not change what the replay writes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "claude/base/json.hpp"
#include "claude/emulator/engine.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::emulator {
namespace {

namespace fs = std::filesystem;

class ScenarioFileLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("scenario_file_load_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_file(const std::string& name, std::string_view text) const {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // The same text read through a FIFO: the chunked read(2) path. The loader opens a FIFO without
  // blocking and takes a missing writer for an empty file, so the writer is attached before the
  // load starts; a reader that never reads holds the FIFO open meanwhile, so the writer's open
  // does not block and nothing it writes is dropped (or raises SIGPIPE) between the two opens.
  LoadResult load_through_fifo(std::string_view text) const {
    const fs::path path = dir_ / "pipe.ndjson";
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    const int keeper = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
    EXPECT_GE(keeper, 0);
    const int fd = keeper >= 0 ? ::open(path.c_str(), O_WRONLY) : -1;
    EXPECT_GE(fd, 0);
    std::thread writer([&] {
      std::size_t done = 0;
      while (fd >= 0 && done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      if (fd >= 0) ::close(fd);
    });
    LoadResult result = load_scenario_file(path);
    writer.join();
    if (keeper >= 0) ::close(keeper);
    return result;
  }

  fs::path dir_;
};

// Everything a step carries, bytes decoded.
void expect_same_steps(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(to_ndjson(a), to_ndjson(b));
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    const Step& x = a.steps[i];
    const Step& y = b.steps[i];
    EXPECT_EQ(x.verb, y.verb);
    EXPECT_EQ(x.line, y.line);
    EXPECT_EQ(x.value, y.value);
    EXPECT_EQ(x.verbatim, y.verbatim);
    EXPECT_EQ(x.within_ms, y.within_ms);
    EXPECT_EQ(x.number, y.number);
    EXPECT_EQ(x.text, y.text);
  }
}

// Escapes of every kind, bytes that are not UTF-8 (raw_b64), CRLF, a BOM, a last line without
// its newline.
const std::string kOddScenario =
    "\xEF\xBB\xBF"
    R"({"scenario":1,"name":"odd"})"
    "\r\n"
    R"({"raw":"nul \u0000 quote \" slash \\ \/ \b\f\n\r\t surrogate \ud83d\ude00 raw é\u2028\n"})"
    "\n"
    R"({"raw_b64":"/+4AAf8K"})"
    "\r\n"
    R"({ "stderr" : "warning\r\n" } )"
    "\n"
    R"({"raw":""})"
    "\n"
    "# comment\n\n"
    R"({"send":{"type":"x","text":"a\u0000b"},"chunks":[1,2]})"
    "\n"
    R"({"expect":{"type":"user"}})"
    "\n"
    R"({"respond_error":"no \"way\""})"
    "\n"
    R"({"raw":"{\"type\":\"last\"}\n"})"
    "\r\n"
    R"({"exit":3})";

TEST_F(ScenarioFileLoad, RegularFileLoadsLikeTextAndFifo) {
  const auto from_file = load_scenario_file(write_file("odd.ndjson", kOddScenario));
  const auto from_text = load_scenario_text(kOddScenario, "odd.ndjson");
  const auto from_fifo = load_through_fifo(kOddScenario);
  ASSERT_TRUE(from_file.ok()) << from_file.errors.front().to_string();
  ASSERT_TRUE(from_text.ok()) << from_text.errors.front().to_string();
  ASSERT_TRUE(from_fifo.ok()) << from_fifo.errors.front().to_string();
  expect_same_steps(*from_file.scenario, *from_text.scenario);
  expect_same_steps(*from_file.scenario, *from_fifo.scenario);
  const auto& steps = from_file.scenario->steps;
  ASSERT_EQ(steps.size(), 9u);
  static constexpr char kDecoded[] =
      "nul \0 quote \" slash \\ / \b\f\n\r\t surrogate \xF0\x9F\x98\x80 raw \xC3\xA9\xE2\x80\xA8\n";
  EXPECT_EQ(steps[0].text, std::string(kDecoded, sizeof kDecoded - 1));
  EXPECT_EQ(steps[1].text, std::string("\xFF\xEE\x00\x01\xFF\x0A", 6));
  EXPECT_EQ(steps[2].text, "warning\r\n");
  EXPECT_EQ(steps[3].text, "");
  EXPECT_EQ(steps[7].text, "{\"type\":\"last\"}\n");
}

// A scenario whose size is a whole number of pages ends a line (with or without its newline) on
// the last byte of the file's chunk.
TEST_F(ScenarioFileLoad, FileOfWholePagesEndingInARawStep) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  for (const bool newline : {true, false}) {
    SCOPED_TRACE(newline ? "with newline" : "without newline");
    std::string text = R"({"scenario":1})"
                       "\n";
    const std::string open = R"({"raw":")";
    const std::string close = std::string(R"("})") + (newline ? "\n" : "");
    const std::size_t fill = 2 * page - text.size() - open.size() - close.size();
    const std::string payload(fill, 'p');
    text += open + payload + close;
    ASSERT_EQ(text.size(), 2 * page);
    const auto from_file = load_scenario_file(write_file("pages.ndjson", text));
    ASSERT_TRUE(from_file.ok()) << from_file.errors.front().to_string();
    ASSERT_EQ(from_file.scenario->steps.size(), 1u);
    EXPECT_EQ(from_file.scenario->steps[0].text, payload);
    expect_same_steps(*from_file.scenario, *load_scenario_text(text, "pages.ndjson").scenario);
  }
}

// Lines longer than the load's 1 MiB chunks and than the shared parser's 1 MiB.
TEST_F(ScenarioFileLoad, LinesLongerThanAChunkStayWhole) {
  std::string text = R"({"scenario":1})"
                     "\n";
  std::string big;
  for (int i = 0; big.size() < (std::size_t{3} << 20); ++i)
    big += "line " + std::to_string(i) + "\\n";
  for (int i = 0; i < 3; ++i) text += R"({"raw":")" + big + "\"}\n";
  text += R"({"stderr":"small"})";
  const auto from_file = load_scenario_file(write_file("big.ndjson", text));
  ASSERT_TRUE(from_file.ok()) << from_file.errors.front().to_string();
  ASSERT_EQ(from_file.scenario->steps.size(), 4u);
  expect_same_steps(*from_file.scenario, *load_scenario_text(text, "big.ndjson").scenario);
}

TEST_F(ScenarioFileLoad, ErrorsAreTheSameAsFromText) {
  const std::string text = R"({"scenario":1})"
                           "\n"
                           R"({"raw":"ok"})"
                           "\n"
                           R"({"raw":"bad \x escape"})"
                           "\n"
                           R"({"raw":"two","raw":"keys"})"
                           "\n"
                           R"({"stderr":7})"
                           "\n"
                           R"({"raw":"x","stderr":"y"})"
                           "\n"
                           R"({"exit":0})"
                           "\n"
                           R"({"raw":"after the end"})"
                           "\n"
                           R"({"stderr":"invalid \ud800 surrogate"})";
  const auto from_file = load_scenario_file(write_file("bad.ndjson", text));
  const auto from_text = load_scenario_text(text, (dir_ / "bad.ndjson").string());
  ASSERT_FALSE(from_file.ok());
  ASSERT_EQ(from_file.errors.size(), from_text.errors.size());
  for (std::size_t i = 0; i < from_file.errors.size(); ++i) {
    EXPECT_EQ(from_file.errors[i].to_string(), from_text.errors[i].to_string());
  }
  ASSERT_EQ(from_file.errors.size(), 5u);
  EXPECT_EQ(from_file.errors[0].line, 3u);
  EXPECT_NE(from_file.errors[3].reason.find("step after exit/kill/hang is never reached"),
            std::string::npos);
}

// The replay writes what was loaded: a file truncated or rewritten on disk after the load
// changes nothing (it used to fail the step with `scenario_changed`, when raw strings were read
// back from the file as they were written).
TEST_F(ScenarioFileLoad, AFileChangedOnDiskDuringTheReplayChangesNothing) {
  const std::string text = R"({"scenario":1})"
                           "\n"
                           R"({"raw":"{\"type\":\"a\"}\n"})"
                           "\n"
                           R"({"expect":{"type":"user"}})"
                           "\n"
                           R"({"raw":"0123456789"})"
                           "\n"
                           R"({"stderr":"late\n"})"
                           "\n"
                           R"({"exit":0})"
                           "\n";
  const fs::path path = write_file("run.ndjson", text);
  auto loaded = load_scenario_file(path);
  ASSERT_TRUE(loaded.ok());
  Engine engine(std::move(*loaded.scenario), parse_invocation({}), Environment{});
  engine.start(0);
  auto first = engine.take_output();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].bytes, "{\"type\":\"a\"}\n");
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(text.find("0123")));
    file << "\\q";
  }
  fs::resize_file(path, text.find("0123") + 4);
  engine.on_line(R"({"type":"user"})", false, 1);
  const auto rest = engine.take_output();
  EXPECT_FALSE(engine.report().failure.has_value());
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].bytes, "0123456789");
  EXPECT_EQ(rest[1].bytes, "late\n");
}

TEST_F(ScenarioFileLoad, EmptyFileIsStillAnEmptyFile) {
  const auto loaded = load_scenario_file(write_file("empty.ndjson", ""));
  ASSERT_EQ(loaded.errors.size(), 1u);
  EXPECT_EQ(loaded.errors[0].reason, "empty file: no header line");
}

TEST_F(ScenarioFileLoad, ReadCliVersionOfARegularFile) {
  const auto path = write_file("v.ndjson", R"({"scenario":1,"cli_version":"9.9.9"})"
                                           "\n"
                                           R"({"raw":"x"})");
  EXPECT_EQ(read_cli_version(path), "9.9.9");
}

}  // namespace
}  // namespace claude::emulator
