#!/usr/bin/env node
// The official TypeScript Agent SDK as a peer in bench/compare, on the same CLI stand-ins as the
// C++ SDK's benchmarks (the SDK comes from drivers/ts/node_modules, tests/peers/ts-sdk/install-sdk).
//
//   ts-sdk-peer.mjs control-rtt --cli PATH --requests N
//     Row (b): query() against bench/sdk's control_rtt_cli, which sends N can_use_tool requests one
//     at a time and times each until its answer; canUseTool allows. Prints control_rtt_cli's report
//     {"requests":N,"p50_us":…,"p99_us":…,"mean_us":…}.
//   ts-sdk-peer.mjs replay --fake-claude PATH --scenario FILE --bytes N
//     Rows (c, f): fake-claude replays FILE (N bytes of messages after the prompt) into query().
//     Prints {"bytes":N,"messages":M,"seconds":S,"mb_per_s":X,"peak_rss_mib":R}: seconds from the
//     query() call to the end of the stream, MB = 10^6 bytes, R this process's peak RSS.
//
// Exit codes: 0 measured, 2 usage or the SDK is not installed, 3 the CLI side failed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const USAGE = `usage: ts-sdk-peer.mjs control-rtt --cli PATH --requests N
       ts-sdk-peer.mjs replay --fake-claude PATH --scenario FILE --bytes N
Exit codes: 0 measured, 2 usage or the SDK is not installed, 3 the CLI side failed.`;

const sdkPath = resolve(dirname(fileURLToPath(import.meta.url)),
  '../../drivers/ts/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs');

function fail(code, message) {
  process.stderr.write(`ts-sdk-peer: ${message}\n`);
  process.exit(code);
}

function parseArgs(argv) {
  const [mode, ...rest] = argv;
  if (mode === '--help' || mode === '-h') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const needed = { 'control-rtt': ['cli', 'requests'], replay: ['fake-claude', 'scenario', 'bytes'] }[mode];
  if (!needed) fail(2, `unknown mode '${mode ?? ''}'\n${USAGE}`);
  const args = { mode };
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i].replace(/^--/, '');
    if (!needed.includes(name) || rest[i + 1] === undefined) fail(2, `bad argument '${rest[i]}'\n${USAGE}`);
    args[name] = rest[i + 1];
  }
  for (const name of needed) if (args[name] === undefined) fail(2, `--${name} is required\n${USAGE}`);
  return args;
}

// The SDK's default environment would read the user's settings; the stand-ins ignore them, and a
// fake key keeps any accidental network use pointed nowhere.
const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-fake-bench', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };

async function controlRtt(sdk, args) {
  const dir = mkdtempSync(join(tmpdir(), 'ts-sdk-rtt-'));
  const report = join(dir, 'report.json');
  try {
    const q = sdk.query({
      prompt: 'go',
      options: {
        pathToClaudeCodeExecutable: args.cli,
        executableArgs: ['--requests', args.requests, '--report', report],
        env,
        canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }),
      },
    });
    for await (const _ of q);
    if (!existsSync(report)) fail(3, `control_rtt_cli wrote no report (${report})`);
    process.stdout.write(`${readFileSync(report, 'utf8').trim()}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function replay(sdk, args) {
  const begin = process.hrtime.bigint();
  const q = sdk.query({
    prompt: 'stream',
    options: { pathToClaudeCodeExecutable: args['fake-claude'], executableArgs: ['--scenario', args.scenario], env },
  });
  let messages = 0;
  for await (const _ of q) messages++;
  const seconds = Number(process.hrtime.bigint() - begin) / 1e9;
  const bytes = Number(args.bytes);
  process.stdout.write(`${JSON.stringify({
    bytes, messages, seconds, mb_per_s: bytes / 1e6 / seconds,
    peak_rss_mib: process.resourceUsage().maxRSS / 1024,
  })}\n`);
}

const args = parseArgs(process.argv.slice(2));
if (!existsSync(sdkPath)) fail(2, `the TypeScript SDK is not installed (${sdkPath}); run tests/peers/ts-sdk/install-sdk`);
const sdk = await import(pathToFileURL(sdkPath).href);
try {
  await (args.mode === 'control-rtt' ? controlRtt(sdk, args) : replay(sdk, args));
} catch (err) {
  fail(3, err?.stack ?? String(err));
}
