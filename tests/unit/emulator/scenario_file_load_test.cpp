// Regular files are read in blocks and their `raw`/`stderr` strings stay in the file, escaped,
// until written; these tests hold that path to the reference: the same text loaded from memory
// (load_scenario_text) or read through a FIFO (read(2) in chunks) gives the same scenario, the same
// bytes and the same errors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "claude/emulator/engine.hpp"
#include "claude/emulator/json_text.hpp"
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
    EXPECT_EQ(x.bytes(), y.bytes());
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
  EXPECT_EQ(steps[0].bytes(), std::string(kDecoded, sizeof kDecoded - 1));
  EXPECT_EQ(steps[1].bytes(), std::string("\xFF\xEE\x00\x01\xFF\x0A", 6));
  EXPECT_EQ(steps[2].bytes(), "warning\r\n");
  EXPECT_EQ(steps[3].bytes(), "");
  EXPECT_EQ(steps[7].bytes(), "{\"type\":\"last\"}\n");
}

TEST_F(ScenarioFileLoad, RawAndStderrStringsStayEscapedInTheFile) {
  const auto loaded = load_scenario_file(write_file("odd.ndjson", kOddScenario));
  ASSERT_TRUE(loaded.ok());
  const auto& steps = loaded.scenario->steps;
  EXPECT_NE(steps[0].escaped, nullptr);
  EXPECT_TRUE(steps[0].text.empty());
  EXPECT_EQ(steps[1].escaped, nullptr);  // raw_b64 is decoded at load
  EXPECT_NE(steps[2].escaped, nullptr);
  EXPECT_EQ(steps[6].escaped, nullptr);  // respond_error
}

TEST_F(ScenarioFileLoad, TakeBytesGivesTheBytesAndLeavesThemReadable) {
  const auto loaded = load_scenario_file(write_file("odd.ndjson", kOddScenario));
  ASSERT_TRUE(loaded.ok());
  Step step = loaded.scenario->steps[7];
  EXPECT_EQ(step.take_bytes(), "{\"type\":\"last\"}\n");
  EXPECT_EQ(step.bytes(), "{\"type\":\"last\"}\n");
}

// A scenario whose size is a whole number of pages ends a line (with or without its newline) on
// the last byte of its block: the parser's padding must still be there.
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
    EXPECT_EQ(from_file.scenario->steps[0].bytes(), payload);
    expect_same_steps(*from_file.scenario, *load_scenario_text(text, "pages.ndjson").scenario);
  }
}

// Lines longer than the load's 1 MiB slices and than the shared parser's 1 MiB.
TEST_F(ScenarioFileLoad, LinesLongerThanASliceStayWhole) {
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

TEST_F(ScenarioFileLoad, TruncatedFileIsAnErrorNotACrash) {
  const fs::path path = write_file("cut.ndjson", R"({"scenario":1})"
                                                 "\n"
                                                 R"({"raw":"0123456789"})"
                                                 "\n");
  const auto loaded = load_scenario_file(path);
  ASSERT_TRUE(loaded.ok());
  fs::resize_file(path, 0);
  try {
    (void)loaded.scenario->steps[0].bytes();
    FAIL() << "expected StepBytesError";
  } catch (const StepBytesError& e) {
    EXPECT_NE(std::string(e.what()).find("the scenario file was truncated"), std::string::npos)
        << e.what();
  }
}

TEST_F(ScenarioFileLoad, EngineWritesEachRawStepOnceAndFailsOnATruncatedFile) {
  const fs::path path = write_file("run.ndjson", R"({"scenario":1})"
                                                 "\n"
                                                 R"({"raw":"{\"type\":\"a\"}\n"})"
                                                 "\n"
                                                 R"({"expect":{"type":"user"}})"
                                                 "\n"
                                                 R"({"stderr":"late\n"})"
                                                 "\n"
                                                 R"({"exit":0})"
                                                 "\n");
  auto loaded = load_scenario_file(path);
  ASSERT_TRUE(loaded.ok());
  Engine engine(std::move(*loaded.scenario), parse_invocation({}), Environment{});
  engine.start(0);
  auto first = engine.take_output();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].bytes, "{\"type\":\"a\"}\n");
  fs::resize_file(path, 0);
  engine.on_line(R"({"type":"user"})", false, 1);
  ASSERT_TRUE(engine.report().failure.has_value());
  EXPECT_EQ(engine.report().failure->kind, "scenario_changed");
  EXPECT_EQ(engine.report().failure->line, 4u);
  EXPECT_NE(engine.report().failure->message.find("truncated"), std::string::npos);
}

// The shell gives the bytes of each written output back (Engine::give_back) and the next steps
// decode into them: whatever those strings held, each step writes exactly its own bytes.
TEST_F(ScenarioFileLoad, StepsDecodeIntoGivenBackStringsAndWriteOnlyTheirOwnBytes) {
  std::string text = R"({"scenario":1})"
                     "\n";
  std::string expected_out, expected_err;
  for (const std::size_t size : {5000, 10, 70000, 0, 3, 70000, 200}) {
    const std::string bytes = std::string(size, 'a') + "\"\n";
    // Each step waits for an SDK line: it runs after the outputs before it were given back.
    text += R"({"expect":{"type":"user"}})"
            "\n";
    text += R"({"raw":")" + std::string(size, 'a') + R"(\"\n"})" + "\n";
    expected_out += bytes;
    if (size == 10) {
      text += R"({"stderr":"warn \u00e9\n"})"
              "\n";
      expected_err += "warn \xC3\xA9\n";
    }
  }
  text += R"({"send":{"type":"last"}})"
          "\n";
  expected_out += "{\"type\":\"last\"}\n";
  auto loaded = load_scenario_file(write_file("spares.ndjson", text));
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().to_string();
  Engine engine(std::move(*loaded.scenario), parse_invocation({}), Environment{});
  std::string out, err;
  std::size_t given_back = 0;
  auto take = [&] {
    for (Output& output : engine.take_output()) {
      (output.stream == Output::Stream::stdout_stream ? out : err) += output.bytes;
      // Stale bytes, longer than any step, where the next step decodes.
      output.bytes.assign(80000, '#');
      engine.give_back(std::move(output.bytes));
      ++given_back;
    }
  };
  engine.start(0);
  take();
  for (Millis t = 1; t <= 7; ++t) {  // one for each step's expect
    engine.on_line(R"({"type":"user"})", false, t);
    take();
  }
  engine.on_eof(8);
  take();
  EXPECT_TRUE(engine.report().passed);
  EXPECT_GE(given_back, 9u);
  EXPECT_EQ(out.size(), expected_out.size());
  EXPECT_TRUE(out == expected_out);
  EXPECT_EQ(err, expected_err);
}

TEST_F(ScenarioFileLoad, RewrittenStringIsAnErrorNotWrongBytes) {
  const std::string text = R"({"scenario":1})"
                           "\n"
                           R"({"raw":"0123456789"})"
                           "\n";
  const fs::path path = write_file("edit.ndjson", text);
  const auto loaded = load_scenario_file(path);
  ASSERT_TRUE(loaded.ok());
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(text.find("0123")));
    file << "\\q";
  }
  EXPECT_THROW((void)loaded.scenario->steps[0].bytes(), StepBytesError);
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
