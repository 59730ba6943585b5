// The argv and environment built from Options, option by option (docs/protocol.md §1.2, §1.3).
#include "process/argv_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace claude::sdk {
namespace {

using Argv = std::vector<std::string>;
const Argv kBase = {"/bin/claude",    "--output-format", "stream-json",     "--verbose",
                    "--input-format", "stream-json",     "--system-prompt", ""};

// The tokens after the fixed prefix and the default system prompt.
Argv extra(const Options& o) {
  Argv argv = build_argv(o, "/bin/claude");
  return Argv(argv.begin() + static_cast<std::ptrdiff_t>(kBase.size()), argv.end());
}

TEST(ArgvBuilderTest, DefaultArgvIsTheStreamJsonFlagsAndAnEmptySystemPrompt) {
  EXPECT_EQ(build_argv(Options{}, "/bin/claude"), kBase);
}

TEST(ArgvBuilderTest, CanUseToolAddsPermissionPromptToolStdio) {
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::allowed();
  };
  EXPECT_EQ(extra(o), (Argv{"--permission-prompt-tool", "stdio"}));
}

TEST(ArgvBuilderTest, CanUseToolWithAnotherPromptToolIsRejected) {
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::allowed();
  };
  o.permission_prompt_tool = "mcp__perm__ask";
  EXPECT_THROW(build_argv(o, "/bin/claude"), std::invalid_argument);
}

TEST(ArgvBuilderTest, SystemPromptForms) {
  Options text;
  text.system_prompt.value = "be brief";
  EXPECT_EQ(build_argv(text, "c")[7], "be brief");
  Options file;
  file.system_prompt = {SystemPrompt::Kind::file, "/p.txt", ""};
  EXPECT_EQ(extra(Options{}).size(), 0u);
  Argv f = build_argv(file, "c");
  EXPECT_EQ(Argv(f.begin() + 6, f.end()), (Argv{"--system-prompt-file", "/p.txt"}));
  Options preset;
  preset.system_prompt = {SystemPrompt::Kind::preset, "", "also this"};
  Argv p = build_argv(preset, "c");
  EXPECT_EQ(Argv(p.begin() + 6, p.end()), (Argv{"--append-system-prompt", "also this"}));
  Options in_init;
  in_init.system_prompt_in_initialize = true;
  EXPECT_EQ(build_argv(in_init, "c").size(), 6u);
}

TEST(ArgvBuilderTest, ModelFallbackAndPermissionMode) {
  Options o;
  o.model = "opus";
  o.fallback_model = "sonnet";
  o.permission_mode = PermissionMode::accept_edits;
  EXPECT_EQ(extra(o), (Argv{"--model", "opus", "--fallback-model", "sonnet", "--permission-mode",
                            "acceptEdits"}));
  o.fallback_model = "opus";
  EXPECT_THROW(build_argv(o, "c"), std::invalid_argument);
}

TEST(ArgvBuilderTest, TurnAndBudgetLimits) {
  Options o;
  o.max_turns = 3;
  o.max_budget_usd = 0.5;
  EXPECT_EQ(extra(o), (Argv{"--max-turns", "3", "--max-budget-usd", "0.5"}));
  o.max_turns = 0;
  EXPECT_THROW(build_argv(o, "c"), std::invalid_argument);
}

TEST(ArgvBuilderTest, ToolListsAreCommaJoined) {
  Options o;
  o.allowed_tools = {"Read", "Bash(git:*)"};
  o.disallowed_tools = {"Write"};
  o.tools = std::vector<std::string>{};
  EXPECT_EQ(extra(o), (Argv{"--allowedTools", "Read,Bash(git:*)", "--disallowedTools", "Write",
                            "--tools", ""}));
}

TEST(ArgvBuilderTest, ExternalMcpServersGoToMcpConfigAndSdkServersOnlyInPythonStyle) {
  Options o;
  o.mcp_servers = {{"fs", {{"command", "mcp-fs"}}}};
  auto server = std::make_shared<McpServer>("calc");
  o.sdk_mcp_servers = {server};
  Argv ts = extra(o);
  ASSERT_EQ(ts.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(ts[1]),
            (nlohmann::json{{"mcpServers", {{"fs", {{"command", "mcp-fs"}}}}}}));
  o.sdk_mcp_style = SdkMcpStyle::mcp_config;
  Argv py = extra(o);
  EXPECT_EQ(nlohmann::json::parse(py[1])["mcpServers"]["calc"],
            (nlohmann::json{{"type", "sdk"}, {"name", "calc"}}));
  o.mcp_config = "/etc/mcp.json";
  EXPECT_EQ(extra(o), (Argv{"--mcp-config", "/etc/mcp.json"}));
}

TEST(ArgvBuilderTest, SessionFlagsUseTheEqualsFormForIds) {
  Options o;
  o.continue_conversation = true;
  o.resume = "abc";
  o.session_id = "-starts-with-dash";
  o.fork_session = true;
  EXPECT_EQ(extra(o), (Argv{"--continue", "--resume=abc", "--session-id=-starts-with-dash",
                            "--fork-session"}));
}

TEST(ArgvBuilderTest, DirectoriesSettingsAndSources) {
  Options o;
  o.add_dirs = {"/a", "/b"};
  o.settings = R"({"x":1})";
  o.setting_sources = std::vector<std::string>{"user", "project"};
  EXPECT_EQ(extra(o), (Argv{"--add-dir", "/a", "--add-dir", "/b", "--settings", R"({"x":1})",
                            "--setting-sources=user,project"}));
}

TEST(ArgvBuilderTest, PartialMessagesStrictMcpEffortThinkingBetas) {
  Options o;
  o.include_partial_messages = true;
  o.strict_mcp_config = true;
  o.effort = "high";
  o.thinking = ThinkingConfig{ThinkingConfig::Kind::enabled, 2048};
  o.betas = {"b1", "b2"};
  EXPECT_EQ(extra(o), (Argv{"--strict-mcp-config", "--include-partial-messages", "--effort", "high",
                            "--max-thinking-tokens", "2048", "--betas", "b1,b2"}));
  o = Options{};
  o.thinking = ThinkingConfig{ThinkingConfig::Kind::disabled, 0};
  EXPECT_EQ(extra(o), (Argv{"--thinking", "disabled"}));
}

TEST(ArgvBuilderTest, ExtraArgsKeepOrderAndDashLeadingValuesUseEquals) {
  Options o;
  o.extra_args = {{"debug-to-stderr", std::nullopt}, {"foo", "bar"}, {"neg", "-1"}};
  EXPECT_EQ(extra(o), (Argv{"--debug-to-stderr", "--foo", "bar", "--neg=-1"}));
}

TEST(ArgvBuilderTest, PrefixArgsComeRightAfterTheExecutable) {
  Options o;
  o.cli_prefix_args = {"--scenario", "s.ndjson"};
  Argv argv = build_argv(o, "fake");
  EXPECT_EQ(Argv(argv.begin(), argv.begin() + 4),
            (Argv{"fake", "--scenario", "s.ndjson", "--output-format"}));
}

bool has(const std::vector<std::string>& env, const std::string& entry) {
  return std::find(env.begin(), env.end(), entry) != env.end();
}

TEST(EnvironmentTest, ParentEnvMinusClaudecodePlusSdkMarkers) {
  Options o;
  auto env = build_environment(o, {"HOME=/h", "CLAUDECODE=1", "PATH=/bin"});
  EXPECT_TRUE(has(env, "HOME=/h"));
  EXPECT_TRUE(has(env, "PATH=/bin"));
  EXPECT_FALSE(std::any_of(env.begin(), env.end(),
                           [](const std::string& e) { return e.starts_with("CLAUDECODE="); }));
  EXPECT_TRUE(has(env, "CLAUDE_CODE_ENTRYPOINT=sdk-cpp"));
  EXPECT_TRUE(has(env, "CLAUDE_CODE_SDK_READS_SESSION_STATE=1"));
  EXPECT_TRUE(has(env, "CLAUDE_AGENT_SDK_VERSION=" + std::string(kSdkVersion)));
}

TEST(EnvironmentTest, OptionsEnvOverridesButNotTheSdkVersion) {
  Options o;
  o.env = {{"CLAUDE_CODE_ENTRYPOINT", "custom"}, {"CLAUDE_AGENT_SDK_VERSION", "9"}, {"X", "y"}};
  o.cwd = "/work";
  o.enable_file_checkpointing = true;
  auto env = build_environment(o, {});
  EXPECT_TRUE(has(env, "CLAUDE_CODE_ENTRYPOINT=custom"));
  EXPECT_TRUE(has(env, "CLAUDE_AGENT_SDK_VERSION=" + std::string(kSdkVersion)));
  EXPECT_TRUE(has(env, "X=y"));
  EXPECT_TRUE(has(env, "PWD=/work"));
  EXPECT_TRUE(has(env, "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=true"));
}

}  // namespace
}  // namespace claude::sdk
