#!/usr/bin/env node
// A community TypeScript SDK that drives the CLI in print mode (@instantlyeasy/claude-code-sdk-ts:
// `claude --output-format stream-json --verbose --print`, the prompt written to stdin, then
// closed), run unchanged against fake-claude. The SDK finds `claude` on PATH, so a shim folder
// with a `claude` link to fake-claude goes first on PATH and HOME is an empty folder (the SDK looks
// in ~/.claude first).
//
// Passes when the SDK yields the scenario's messages without throwing and fake-claude's verdict
// passed with the prompt the SDK wrote. Exit 0 pass, 1 fail, 2 usage.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const fakeClaude = option('--fake-claude');
const scenario = option('--scenario');
const prompt = option('--prompt') ?? 'What is 2+2?';
if (!fakeClaude || !scenario) {
  console.error('usage: run-print-mode.mjs --fake-claude PATH --scenario FILE [--prompt TEXT]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'print-mode-'));
const problems = [];
try {
  mkdirSync(join(work, 'home'));
  mkdirSync(join(work, 'bin'));
  symlinkSync(resolve(fakeClaude), join(work, 'bin', 'claude'));
  const report = join(work, 'report.json');
  process.env.PATH = `${join(work, 'bin')}:${process.env.PATH}`;
  process.env.HOME = join(work, 'home');
  process.env.FAKE_CLAUDE_SCENARIO = resolve(scenario);
  process.env.FAKE_CLAUDE_REPORT = report;

  const { query } = await import(join(here, 'node_modules/@instantlyeasy/claude-code-sdk-ts/dist/index.js'));
  const messages = [];
  try {
    for await (const message of query(prompt)) messages.push(message);
  } catch (err) {
    problems.push(`the SDK threw: ${err?.name}: ${err?.message}`);
  }
  // The SDK yields its own view: assistant content blocks and the result's subtype (it drops
  // system messages).
  const answer = messages.find((m) => m.type === 'assistant')?.content?.find((b) => b.type === 'text');
  if (answer?.text !== '4') problems.push(`no assistant text "4" (got ${JSON.stringify(messages)})`);
  const result = messages.find((m) => m.type === 'result');
  if (result?.subtype !== 'success') problems.push(`no success result (got ${JSON.stringify(result)})`);

  const verdict = JSON.parse(readFileSync(report, 'utf8'));
  if (verdict.verdict !== 'pass') {
    problems.push(`fake-claude's verdict is ${verdict.verdict}: ${JSON.stringify(verdict.failure ?? verdict.leftover)}`);
  }
  const seen = verdict.transcript?.find((e) => e.prompt);
  if (seen?.line !== prompt) problems.push(`fake-claude saw the prompt ${JSON.stringify(seen?.line)}, the SDK sent ${JSON.stringify(prompt)}`);
} catch (err) {
  problems.push(`${err?.name}: ${err?.message}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  for (const p of problems) console.error(`FAIL: ${p}`);
  process.exit(1);
}
console.log('PASS: the print-mode SDK got its answer from fake-claude');
