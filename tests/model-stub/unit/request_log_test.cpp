#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <claude/model_stub/request_log.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace claude::model_stub {
namespace {

TEST(ModelStubRequestLog, SecretHeadersAreRedactedWhateverTheirCase) {
  const ApiRequest request{"POST",
                           "/v1/messages",
                           {{"X-Api-Key", "sk-ant-fake-123"},
                            {"Authorization", "Bearer abc"},
                            {"anthropic-version", "2023-06-01"}},
                           "{\"model\":\"m\"}"};
  const Json entry = request_log_entry(1, request, ApiResponse{});
  EXPECT_EQ(entry["headers"]["x-api-key"], "[redacted]");
  EXPECT_EQ(entry["headers"]["authorization"], "[redacted]");
  EXPECT_EQ(entry["headers"]["anthropic-version"], "2023-06-01");
  EXPECT_EQ(entry.dump().find("sk-ant-fake-123"), std::string::npos);
  EXPECT_EQ(entry["body"]["model"], "m");
}

TEST(ModelStubRequestLog, BodyThatIsNotJsonIsKeptAsText) {
  const ApiRequest request{"POST", "/v1/messages", {}, "{broken"};
  ApiResponse response;
  response.status = 400;
  response.outcome = "malformed body";
  const Json entry = request_log_entry(7, request, response);
  EXPECT_EQ(entry["body"], "{broken");
  EXPECT_EQ(entry["seq"], 7);
  EXPECT_EQ(entry["status"], 400);
  EXPECT_TRUE(entry["rule_line"].is_null());
}

TEST(ModelStubRequestLog, WritesOneFlushedLinePerRequest) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("model_stub_log_" + std::to_string(getpid()) + ".ndjson");
  std::filesystem::remove(path);
  {
    RequestLog log(path);
    ApiResponse response;
    response.rule_line = 3;
    log.record(ApiRequest{"POST", "/v1/messages", {}, "{}"}, response);
    log.record(ApiRequest{"GET", "/", {}, ""}, ApiResponse{});
    std::ifstream in(path);
    std::string first;
    std::string second;
    ASSERT_TRUE(std::getline(in, first));
    ASSERT_TRUE(std::getline(in, second));
    EXPECT_EQ(Json::parse(first)["rule_line"], 3);
    EXPECT_EQ(Json::parse(second)["seq"], 2);
    EXPECT_TRUE(Json::parse(second).contains("t"));
  }
  std::filesystem::remove(path);
}

TEST(ModelStubRequestLog, SecretsInBodiesAreRedactedEvenInsideEscapedStrings) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("model_stub_log_secrets_" + std::to_string(getpid()) + ".ndjson");
  std::filesystem::remove(path);
  {
    RequestLog log(path);
    const std::string body =
        R"({"messages":[{"role":"user","content":[{"type":"tool_result","content":)"
        R"("{\"access_token\":\"ya29.FAKEfake\",\"refresh_token\":\"1//0FAKEfake\"}"},)"
        R"({"type":"text","text":"use sk-ant-api03-FAKEfakeFAKE"}]}]})";
    log.record(ApiRequest{"POST", "/v1/messages", {}, body}, ApiResponse{});
  }
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.find("ya29.FAKEfake"), std::string::npos) << line;
  EXPECT_EQ(line.find("1//0FAKEfake"), std::string::npos) << line;
  EXPECT_EQ(line.find("sk-ant-api03-FAKEfakeFAKE"), std::string::npos) << line;
  EXPECT_NO_THROW((void)Json::parse(line));
  std::filesystem::remove(path);
}

TEST(ModelStubRequestLog, IsCreatedPrivateAndReplacesAnExistingFileOnlyWhenAsked) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("model_stub_log_private_" + std::to_string(getpid()) + ".ndjson");
  std::filesystem::remove(path);
  ::umask(022);
  { RequestLog log(path); }
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_THROW(RequestLog again(path), std::runtime_error);
  EXPECT_NO_THROW(RequestLog replaced(path, true));
  std::filesystem::remove(path);
}

TEST(ModelStubRequestLog, UnwritablePathThrowsNamingIt) {
  try {
    RequestLog log("/nonexistent-dir/log.ndjson");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/log.ndjson"), std::string::npos);
  }
}

}  // namespace
}  // namespace claude::model_stub
