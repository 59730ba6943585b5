// The bad-input catalogue (tests/bad_input/catalogue.json): one test case per row. A row names an
// entry point (an executable, or "sdk" for the C++ SDK reading a CLI's stdout), the input, and
// what must come out: the documented exit code (or SDK error class), message fragments, and never
// a signal death or a hang. tests/bad_input/README.md describes the row format.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "claude/sdk/errors.hpp"
#include "claude/sdk/options.hpp"
#include "claude/sdk/query.hpp"
#include "claude/test_support/run.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The rows are read when test cases are listed too (gtest_discover_tests at build time), where
// the environment variable is not set: the build's source tree is the fallback.
fs::path source_dir() {
  const char* dir = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  return dir != nullptr ? fs::path(dir) : fs::path(CATALOGUE_SOURCE_DIR);
}

json load_catalogue() {
  std::ifstream in(source_dir() / "tests/bad_input/catalogue.json");
  if (!in) return json::array();
  return json::parse(in)["rows"];
}

fs::path executable(const std::string& entry) {
  if (entry == "fake-claude") return FAKE_CLAUDE_PATH;
  if (entry == "harness") return HARNESS_PATH;
  if (entry == "model-stub") return MODEL_STUB_PATH;
  if (entry == "claude-tee") return CLAUDE_TEE_PATH;
  return {};
}

std::string expand(std::string text, const fs::path& tmp) {
  const std::pair<std::string, std::string> names[] = {
      {"${DATA}", (source_dir() / "tests/bad_input/data").string()},
      {"${SOURCE}", source_dir().string()},
      {"${TMP}", tmp.string()},
      {"${FAKE_CLAUDE}", FAKE_CLAUDE_PATH},
  };
  for (const auto& [name, value] : names)
    for (auto at = text.find(name); at != std::string::npos;
         at = text.find(name, at + value.size()))
      text.replace(at, name.size(), value);
  return text;
}

// Bytes from a row: a string, or a list of strings and {"repeat":S,"count":N} pieces (how a
// 100,000-level nesting or a 40 MiB line is written without a 40 MiB data file).
std::string bytes_of(const json& spec, const fs::path& tmp) {
  if (spec.is_string()) return expand(spec.get<std::string>(), tmp);
  std::string out;
  for (const auto& part : spec) {
    if (part.is_string()) {
      out += expand(part.get<std::string>(), tmp);
      continue;
    }
    const auto piece = part.at("repeat").get<std::string>();
    const auto count = part.at("count").get<std::size_t>();
    out.reserve(out.size() + piece.size() * count);
    for (std::size_t i = 0; i < count; ++i) out += piece;
  }
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_fragments(const json& row, const char* key, const std::string& text,
                      const fs::path& tmp, const std::string& what) {
  if (!row.contains(key)) return;
  for (const auto& fragment : row[key]) {
    const std::string f = expand(fragment.get<std::string>(), tmp);
    EXPECT_NE(text.find(f), std::string::npos) << what << " lacks \"" << f << "\"; it was:\n"
                                               << text.substr(0, 4000);
  }
}

struct Row {
  json value;
};

void PrintTo(const Row& row, std::ostream* os) {
  *os << row.value.value("id", "?");
}

class BadInput : public ::testing::TestWithParam<Row> {
 protected:
  void SetUp() override {
    ::signal(SIGPIPE, SIG_IGN);
    tmp_ = fs::temp_directory_path() /
           ("bad_input_" + GetParam().value.value("id", std::string("row")) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(tmp_);
    fs::create_directories(tmp_);
  }
  void TearDown() override { fs::remove_all(tmp_); }

  void write_files(const json& row) {
    const json files = row.value("files", json::object());
    for (const auto& [name, spec] : files.items()) {
      std::ofstream(tmp_ / name, std::ios::binary) << bytes_of(spec, tmp_);
    }
    const json fifos = row.value("fifos", json::array());
    for (const auto& name : fifos) {
      const fs::path fifo = tmp_ / name.get<std::string>();
      ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << fifo;
    }
  }

  void run_sdk(const json& row) {
    claude::sdk::Options options;
    options.cli_path = FAKE_CLAUDE_PATH;
    // The CLI is fake-claude playing the row's scenario (its stdout is the bad input).
    options.extra_args.emplace_back("scenario",
                                    expand(row.at("scenario").get<std::string>(), tmp_));
    options.initialize_timeout = std::chrono::milliseconds(10000);
    options.message_inactivity_timeout = std::chrono::milliseconds(10000);
    options.close_grace = std::chrono::milliseconds(1000);
    options.term_wait = std::chrono::milliseconds(1000);
    std::string caught_class = "none";
    std::string message;
    try {
      auto q = claude::sdk::query("hello", options);
      q.collect();
    } catch (const claude::sdk::ResultError& e) {
      caught_class = "ResultError";
      message = e.what();
    } catch (const claude::sdk::ProcessError& e) {
      caught_class = "ProcessError";
      message = std::string(e.what()) + "\n" + e.stderr_tail();
    } catch (const claude::sdk::MessageParseError& e) {
      caught_class = "MessageParseError";
      message = e.what();
    } catch (const claude::sdk::TimeoutError& e) {
      caught_class = "TimeoutError";
      message = e.what();
    } catch (const claude::sdk::ConnectionError& e) {
      caught_class = "ConnectionError";
      message = e.what();
    } catch (const claude::sdk::ControlError& e) {
      caught_class = "ControlError";
      message = e.what();
    } catch (const claude::sdk::SdkError& e) {
      caught_class = "SdkError";
      message = e.what();
    }
    // A list allows every class the SDK documents for a race it does not order (a CLI that
    // exits at once fails either the initialize write or the read after it).
    const json expected = row.at("error_class");
    const auto allowed = expected.is_array()
                             ? expected.get<std::vector<std::string>>()
                             : std::vector<std::string>{expected.get<std::string>()};
    EXPECT_NE(std::find(allowed.begin(), allowed.end(), caught_class), allowed.end())
        << caught_class << ": " << message;
    expect_fragments(row, "message", message, tmp_, "the SDK error");
  }

  fs::path tmp_;
};

TEST_P(BadInput, EndsWithDocumentedErrorAndNoCrash) {
  const json& row = GetParam().value;
  if (row.contains("known_bug"))
    GTEST_SKIP() << "known bug: " << row["known_bug"].get<std::string>();
  write_files(row);
  const std::string entry = row.at("entry").get<std::string>();
  if (entry == "sdk") {
    run_sdk(row);
    return;
  }
  claude::test_support::SpawnRequest request;
  request.program = executable(entry);
  ASSERT_FALSE(request.program.empty()) << "unknown entry " << entry;
  for (const auto& arg : row.value("args", json::array()))
    request.args.push_back(expand(arg.get<std::string>(), tmp_));
  const json env = row.value("env", json::object());
  for (const auto& [name, value] : env.items())
    request.env[name] = expand(value.get<std::string>(), tmp_);
  for (const auto& name : row.value("unset_env", json::array()))
    request.unset_env.push_back(name.get<std::string>());
  if (row.contains("stdin")) request.stdin_bytes = bytes_of(row["stdin"], tmp_);
  request.cwd = row.contains("cwd") ? fs::path(expand(row["cwd"].get<std::string>(), tmp_))
                                    : source_dir() / "tests/bad_input/data";
  request.timeout = std::chrono::seconds(row.value("timeout_s", 30));

  const auto result = claude::test_support::run_to_completion(request);
  ASSERT_FALSE(result.timed_out) << "hung; stderr so far:\n" << result.err.substr(0, 4000);
  ASSERT_FALSE(result.signaled) << "crashed: " << result.describe() << "\n"
                                << result.err.substr(0, 4000);
  EXPECT_EQ(result.exit_code, row.at("exit").get<int>()) << result.err.substr(0, 4000);
  expect_fragments(row, "stderr", result.err, tmp_, "stderr");
  expect_fragments(row, "stdout", result.out, tmp_, "stdout");
  if (row.contains("file")) {
    const fs::path path = expand(row["file"].at("path").get<std::string>(), tmp_);
    ASSERT_TRUE(fs::exists(path)) << path;
    expect_fragments(row["file"], "contains", read_file(path), tmp_, path.string());
  }
  if (row.contains("no_file")) {
    EXPECT_FALSE(fs::exists(expand(row["no_file"].get<std::string>(), tmp_)));
  }
}

std::vector<Row> rows() {
  std::vector<Row> out;
  for (const auto& row : load_catalogue()) out.push_back({row});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadInput, ::testing::ValuesIn(rows()),
                         [](const ::testing::TestParamInfo<Row>& param_info) {
                           return param_info.param.value.at("id").get<std::string>();
                         });

TEST(BadInputCatalogue, HasAtLeastSixtyRowsWithUniqueIds) {
  const json all = load_catalogue();
  EXPECT_GE(all.size(), 60u);
  std::set<std::string> ids;
  for (const auto& row : all) EXPECT_TRUE(ids.insert(row.at("id").get<std::string>()).second);
}

}  // namespace
