#!/usr/bin/env node
// Conformance driver for the official TypeScript Agent SDK (@anthropic-ai/claude-agent-sdk).
//
// Reads a driver spec (docs/drivers.md), makes the SDK do what the spec says against fake-claude,
// and prints what the SDK surfaced as NDJSON observations on stdout. The SDK's own failures are
// observations, not driver failures: the driver exits 0 whenever it could carry the spec out.
// The harness has checked the spec against docs/driver-spec.schema.json; this driver does not.
// Exit codes: 0 spec carried out, 2 usage or unreadable spec, 3 the session did not end within timeout_ms
// (or the driver itself broke), 4 the spec asks for something this driver cannot express with this SDK.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';

const USAGE = `usage: driver.mjs [--spec FILE] [--scenario FILE] [--fake-claude PATH]

Runs one driver spec with the official TypeScript Agent SDK and writes NDJSON observations to stdout.

  --spec FILE         driver spec (JSON). Default: $CLAUDE_HARNESS_DRIVER_SPEC, else the "driver"
                      member of the scenario's header line.
  --scenario FILE     scenario handed to fake-claude as --scenario FILE.
                      Default: $FAKE_CLAUDE_SCENARIO.
  --fake-claude PATH  executable the SDK spawns instead of claude. Default: $FAKE_CLAUDE.
  --help              this text.

Exit codes: 0 spec carried out (SDK errors are observations), 2 usage or bad spec,
3 the session did not end within timeout_ms, 4 the spec needs a feature this driver lacks.`;

const EXIT_OK = 0;
const EXIT_USAGE = 2;
const EXIT_TIMEOUT = 3;
const EXIT_UNSUPPORTED = 4;
const DEFAULT_TIMEOUT_MS = 20000;
const SETTLE_MS = 2000;

class UsageError extends Error {}
class UnsupportedFeature extends Error {}

const started = Date.now();

function observe(obs) {
  process.stdout.write(JSON.stringify({ ...obs, t_ms: Date.now() - started }) + '\n');
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      args.help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!['--spec', '--scenario', '--fake-claude'].includes(name)) {
      throw new UsageError(`unknown argument '${arg}'`);
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    args[name.slice(2)] = value;
  }
  return args;
}

function readJsonFile(path, what) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${path}: cannot read ${what}: ${err.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${path}:1: ${what} is not valid JSON: ${err.message}`);
  }
}

function specFromScenarioHeader(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${path}: cannot read scenario: ${err.message}`);
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    let header;
    try {
      header = JSON.parse(line);
    } catch (err) {
      throw new UsageError(`${path}:${i + 1}: scenario header is not valid JSON: ${err.message}`);
    }
    if (header === null || typeof header !== 'object' || header.driver === undefined) {
      throw new UsageError(`${path}:${i + 1}: scenario header has no "driver" member and no --spec was given`);
    }
    return header.driver;
  }
  throw new UsageError(`${path}: scenario is empty`);
}

// Plain-JSON superset match: objects match when every key of the pattern matches, arrays
// element-wise with equal length, scalars by equality. Used for triggers and tool-input rules.
function jsonMatches(pattern, value) {
  if (pattern === null || typeof pattern !== 'object') return pattern === value;
  if (Array.isArray(pattern)) {
    return (
      Array.isArray(value) && value.length === pattern.length && pattern.every((p, i) => jsonMatches(p, value[i]))
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.keys(pattern).every((k) => jsonMatches(pattern[k], value[k]));
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

// Triggers say when something happens: "start", {"delay_ms":N}, or {"message":PATTERN,"nth":N,
// "delay_ms":N} (the Nth SDK-yielded message matching PATTERN, then an optional pause).
class Triggers {
  constructor() {
    this.waiting = [];
    this.counts = new Map();
  }

  // Resolves when the trigger fires; never resolves for "never" or an unmatched pattern.
  when(trigger) {
    if (trigger === undefined || trigger === 'start') return Promise.resolve();
    if (trigger === 'never') return new Promise(() => {});
    const pause = () => (trigger.delay_ms ? sleep(trigger.delay_ms) : Promise.resolve());
    if (trigger.message === undefined) return pause();
    return new Promise((resolve) => {
      this.waiting.push({ pattern: trigger.message, remaining: trigger.nth ?? 1, fire: () => pause().then(resolve) });
    });
  }

  onMessage(message) {
    const still = [];
    for (const w of this.waiting) {
      if (jsonMatches(w.pattern, message) && --w.remaining === 0) w.fire();
      else still.push(w);
    }
    this.waiting = still;
  }
}

// Driver-spec option name -> SDK Options member. Values pass through unchanged.
const OPTION_NAMES = {
  model: 'model',
  fallback_model: 'fallbackModel',
  permission_mode: 'permissionMode',
  max_turns: 'maxTurns',
  max_budget_usd: 'maxBudgetUsd',
  max_thinking_tokens: 'maxThinkingTokens',
  include_partial_messages: 'includePartialMessages',
  include_hook_events: 'includeHookEvents',
  allowed_tools: 'allowedTools',
  disallowed_tools: 'disallowedTools',
  tools: 'tools',
  system_prompt: 'systemPrompt',
  append_system_prompt: 'appendSystemPrompt',
  permission_prompt_tool_name: 'permissionPromptToolName',
  setting_sources: 'settingSources',
  strict_mcp_config: 'strictMcpConfig',
  resume: 'resume',
  continue: 'continue',
  fork_session: 'forkSession',
  session_id: 'sessionId',
  add_dirs: 'additionalDirectories',
  cwd: 'cwd',
  extra_args: 'extraArgs',
  env: 'env',
};

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// The harness checks every spec against docs/driver-spec.schema.json before any driver starts;
// this driver only refuses what the TypeScript SDK cannot express (exit 4).
function unsupportedIn(spec) {
  for (const key of Object.keys(spec.options ?? {})) {
    if (!(key in OPTION_NAMES)) throw new UnsupportedFeature(`options.${key}`);
  }
  for (const call of spec.control ?? []) {
    if (!(call.call in CONTROL_CALLS)) throw new UnsupportedFeature(`control.${call.call}`);
  }
}

// Driver-spec control call -> how to make it on a TS Query. `args` is the call's "args" object.
const CONTROL_CALLS = {
  interrupt: (q) => q.interrupt(),
  set_model: (q, args) => q.setModel(args.model),
  set_permission_mode: (q, args) => q.setPermissionMode(args.mode),
  set_max_thinking_tokens: (q, args) => q.setMaxThinkingTokens(args.max_thinking_tokens ?? null),
  mcp_status: (q) => q.mcpServerStatus(),
  get_context_usage: (q) => q.getContextUsage(),
  rewind_files: (q, args) => q.rewindFiles(args.user_message_id, { dryRun: args.dry_run }),
  stop_task: (q, args) => q.stopTask(args.task_id),
  reconnect_mcp_server: (q, args) => q.reconnectMcpServer(args.server_name),
  toggle_mcp_server: (q, args) => q.toggleMcpServer(args.server_name, args.enabled),
  initialization_result: (q) => q.initializationResult(),
  supported_commands: (q) => q.supportedCommands(),
  supported_models: (q) => q.supportedModels(),
  close: (q) => q.close(),
};

// Reports an abort of a callback that is still running; aborts after it answered are not news.
function watchAbort(signal, seen) {
  const onAbort = () => observe({ obs: 'callback_aborted', ...seen });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return { stop: () => signal.removeEventListener('abort', onAbort) };
}

function buildCanUseTool(rules) {
  return async (toolName, input, { signal, suggestions, toolUseID }) => {
    const rule = rules.find(
      (r) => (r.tool === undefined || r.tool === toolName) && (r.input === undefined || jsonMatches(r.input, input)),
    );
    const seen = { tool: toolName, input, tool_use_id: toolUseID };
    if (suggestions !== undefined) seen.suggestions = suggestions;
    const aborted = watchAbort(signal, { callback: 'can_use_tool', ...seen });
    if (rule?.delay_ms) await sleep(rule.delay_ms, signal);
    aborted.stop();
    if (rule?.throw !== undefined) {
      observe({ obs: 'can_use_tool', ...seen, threw: rule.throw });
      throw new Error(rule.throw);
    }
    let result;
    if (rule === undefined) {
      result = { behavior: 'deny', message: `driver: no can_use_tool rule matches tool '${toolName}'` };
    } else if (rule.behavior === 'allow') {
      result = { behavior: 'allow' };
      if (rule.updated_input !== undefined) result.updatedInput = rule.updated_input;
      if (rule.updated_permissions !== undefined) result.updatedPermissions = rule.updated_permissions;
    } else {
      result = { behavior: 'deny', message: rule.message };
      if (rule.interrupt !== undefined) result.interrupt = rule.interrupt;
    }
    observe({ obs: 'can_use_tool', ...seen, returned: result });
    return result;
  };
}

function buildHooks(hooks) {
  const byEvent = {};
  for (const hook of hooks) {
    const callback = async (input, toolUseID, { signal }) => {
      const seen = { event: hook.event, input, tool_use_id: toolUseID ?? null };
      if (hook.matcher !== undefined) seen.matcher = hook.matcher;
      const aborted = watchAbort(signal, { callback: 'hook', ...seen });
      if (hook.delay_ms) await sleep(hook.delay_ms, signal);
      aborted.stop();
      if (hook.throw !== undefined) {
        observe({ obs: 'hook', ...seen, threw: hook.throw });
        throw new Error(hook.throw);
      }
      observe({ obs: 'hook', ...seen, returned: hook.returns });
      return hook.returns;
    };
    const matcher = { hooks: [callback] };
    if (hook.matcher !== undefined) matcher.matcher = hook.matcher;
    if (hook.timeout !== undefined) matcher.timeout = hook.timeout;
    (byEvent[hook.event] ??= []).push(matcher);
  }
  return byEvent;
}

function buildMcpServers(sdk, zod, servers) {
  const configs = {};
  for (const server of servers) {
    const tools = (server.tools ?? []).map((spec) => {
      let schema;
      try {
        schema = zod.fromJSONSchema(spec.input_schema ?? { type: 'object', properties: {} });
      } catch (err) {
        throw new UsageError(`driver spec: tool '${spec.name}': bad "input_schema": ${errorText(err)}`);
      }
      if (schema.shape === undefined) {
        throw new UsageError(`driver spec: tool '${spec.name}': "input_schema" must describe an object`);
      }
      return sdk.tool(spec.name, spec.description ?? '', schema.shape, async (args, extra) => {
        const seen = { server: server.name, tool: spec.name, arguments: args };
        if (spec.delay_ms) await sleep(spec.delay_ms, extra?.signal);
        if (spec.throw !== undefined) {
          observe({ obs: 'mcp_tool', ...seen, threw: spec.throw });
          throw new Error(spec.throw);
        }
        observe({ obs: 'mcp_tool', ...seen, returned: spec.returns });
        return spec.returns;
      });
    });
    configs[server.name] = sdk.createSdkMcpServer({ name: server.name, version: server.version ?? '1.0.0', tools });
  }
  return configs;
}

async function* streamingInput(turns, endInput, triggers) {
  for (const [i, turn] of turns.entries()) {
    await triggers.when(turn.when ?? (i === 0 ? 'start' : { message: { type: 'result' }, nth: i }));
    yield turn.message ?? {
      type: 'user',
      session_id: '',
      message: { role: 'user', content: [{ type: 'text', text: turn.text }] },
      parent_tool_use_id: null,
    };
  }
  await triggers.when(endInput);
}

// The package's "exports" hide its package.json from require(), so read it beside the entry point.
function sdkVersion() {
  try {
    const entry = createRequire(import.meta.url).resolve('@anthropic-ai/claude-agent-sdk');
    return JSON.parse(readFileSync(join(dirname(entry), 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

function loadInvocation(args) {
  const fakeClaude = args['fake-claude'] ?? process.env.FAKE_CLAUDE;
  if (!fakeClaude) throw new UsageError('no fake-claude path: give --fake-claude PATH or set FAKE_CLAUDE');
  const scenario = args.scenario ?? process.env.FAKE_CLAUDE_SCENARIO;
  const specPath = args.spec ?? process.env.CLAUDE_HARNESS_DRIVER_SPEC;
  let spec;
  if (specPath) spec = readJsonFile(specPath, 'driver spec');
  else if (scenario) spec = specFromScenarioHeader(scenario);
  else throw new UsageError('no driver spec: give --spec FILE, set CLAUDE_HARNESS_DRIVER_SPEC, or give --scenario');

  if (!isObject(spec)) {
    throw new UsageError('the driver spec must be a JSON object (docs/driver-spec.schema.json)');
  }
  unsupportedIn(spec);
  return { fakeClaude, scenario, spec, triggers: new Triggers() };
}

async function run({ fakeClaude, scenario, spec, triggers }, onSessionStart) {
  const sdk = await import('@anthropic-ai/claude-agent-sdk');
  const zod = await import('zod');
  observe({ obs: 'start', driver: 'ts', sdk: '@anthropic-ai/claude-agent-sdk', sdk_version: sdkVersion() });

  const options = { pathToClaudeCodeExecutable: fakeClaude };
  if (scenario) options.executableArgs = ['--scenario', scenario];
  for (const [key, value] of Object.entries(spec.options ?? {})) {
    options[OPTION_NAMES[key]] = key === 'env' ? { ...process.env, ...value } : value;
  }
  if (spec.can_use_tool !== undefined) options.canUseTool = buildCanUseTool(spec.can_use_tool);
  if (spec.hooks !== undefined) options.hooks = buildHooks(spec.hooks);
  if (spec.mcp_servers !== undefined) {
    options.mcpServers = { ...options.mcpServers, ...buildMcpServers(sdk, zod, spec.mcp_servers) };
  }
  if (spec.capture_stderr) options.stderr = (data) => observe({ obs: 'stderr', data });

  const prompt = spec.prompt ?? streamingInput(spec.turns, spec.end_input, triggers);
  onSessionStart();
  const q = sdk.query({ prompt, options });

  const inFlight = [];
  for (const call of spec.control ?? []) {
    triggers.when(call.when).then(() => {
      const settled = Promise.resolve()
        .then(() => CONTROL_CALLS[call.call](q, call.args ?? {}))
        .then(
          (result) => observe({ obs: 'control', call: call.call, ok: true, result: result ?? null }),
          (err) => observe({ obs: 'control', call: call.call, ok: false, error: errorText(err) }),
        );
      inFlight.push(settled);
    });
  }

  let ok = true;
  try {
    for await (const message of q) {
      observe({ obs: 'message', message });
      triggers.onMessage(message);
    }
  } catch (err) {
    ok = false;
    observe({ obs: 'error', message: errorText(err), name: err?.name ?? 'Error' });
  }
  // Calls whose trigger never fired are not made; those in flight get a bounded time to settle.
  // The macrotask turn lets a trigger fired by the last message start its call first.
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.race([Promise.all(inFlight), sleep(SETTLE_MS)]);
  observe({ obs: 'end', ok });
  return EXIT_OK;
}

async function main() {
  let code;
  let timer;
  try {
    const args = parseArgs(process.argv.slice(2));
    if (args.help) {
      process.stdout.write(USAGE + '\n');
      process.exit(EXIT_OK);
    }
    const invocation = loadInvocation(args);
    // The clock starts with the session, not with the (slow, load-dependent) SDK import.
    const timeoutMs = invocation.spec.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    let startClock;
    const timeout = new Promise((resolve) => {
      startClock = () => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      };
    });
    const outcome = await Promise.race([run(invocation, startClock), timeout]);
    if (outcome === 'timeout') {
      observe({ obs: 'error', message: `driver: the session did not end within ${timeoutMs} ms`, name: 'Timeout' });
      observe({ obs: 'end', ok: false, timeout: true });
      code = EXIT_TIMEOUT;
    } else {
      code = outcome;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`driver.mjs: ${err.message}\n`);
      code = EXIT_USAGE;
    } else if (err instanceof UnsupportedFeature) {
      observe({ obs: 'unsupported', feature: err.message });
      process.stderr.write(`driver.mjs: unsupported by the TypeScript driver: ${err.message}\n`);
      code = EXIT_UNSUPPORTED;
    } else {
      process.stderr.write(`driver.mjs: internal error: ${err?.stack ?? err}\n`);
      code = EXIT_TIMEOUT;
    }
  } finally {
    clearTimeout(timer);
  }
  // process.exit() drops what a pipe has not taken yet (a 1.5 MiB observation, say): leave once
  // everything written so far is flushed.
  process.stdout.write('', () => process.exit(code));
}

main();
