#!/usr/bin/env node
// Runs one compatibility case: the official TypeScript Agent SDK (through drivers/ts/driver.mjs)
// against fake-claude, then grades both sides.
//
// A case is scenarios/NAME.ndjson (a format-v1 scenario whose header carries the driver spec) plus
// scenarios/NAME.expect.json:
//   {"fake_claude": PATTERN,                matched against fake-claude's JSON report (FAKE_CLAUDE_REPORT),
//                                           e.g. {"verdict":"pass","ending":{"exit":0},"leftover":[]}
//    "driver_exit": N,                      the driver's exit code (default 0; 3 = session timed out)
//    "observe": [PATTERN, ...],             observations that must appear, in this order
//    "absent":  [PATTERN, ...]}             observations that must not appear at all
// Patterns are those of scenario format v1: objects match supersets, arrays element-wise, scalars
// exactly, plus {"$re"}, {"$any"}, {"$absent"}, {"$type"}.
//
// Exit codes: 0 pass, 1 a check failed (each failure is printed), 2 usage or bad case file,
// 3 the driver did not finish within --timeout-ms.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const USAGE = `usage: run-case.mjs --case scenarios/NAME --fake-claude PATH [--driver PATH] [--timeout-ms N]

Runs scenarios/NAME.ndjson with the TypeScript SDK driver against fake-claude and checks
fake-claude's report and the driver's observations against scenarios/NAME.expect.json.

Exit codes: 0 pass, 1 a check failed, 2 usage or bad case file, 3 the driver did not finish.`;

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { driver: resolve(here, '../../../drivers/ts/driver.mjs'), 'timeout-ms': '30000' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--help') return { help: true };
    const name = argv[i].replace(/^--/, '');
    if (!['case', 'fake-claude', 'driver', 'timeout-ms'].includes(name) || argv[i + 1] === undefined) {
      throw new Error(`bad argument '${argv[i]}'`);
    }
    args[name] = argv[++i];
  }
  if (!args.case || !args['fake-claude']) throw new Error('--case and --fake-claude are required');
  return args;
}

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

// Returns null on a match, else the JSON Pointer of the first difference and why.
function mismatch(pattern, value, pointer = '') {
  const here = pointer || '/';
  if (pattern !== null && typeof pattern === 'object' && !Array.isArray(pattern)) {
    if ('$any' in pattern) return value === undefined ? `${here}: missing` : null;
    if ('$absent' in pattern) return value === undefined ? null : `${here}: present, expected absent`;
    if ('$type' in pattern) {
      const t = typeOf(value);
      const ok = t === pattern.$type || (pattern.$type === 'number' && t === 'integer');
      return ok ? null : `${here}: type ${t}, expected ${pattern.$type}`;
    }
    if ('$re' in pattern) {
      if (typeof value !== 'string') return `${here}: not a string, expected /${pattern.$re}/`;
      return new RegExp(pattern.$re).test(value) ? null : `${here}: ${JSON.stringify(value)} !~ /${pattern.$re}/`;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${here}: expected an object`;
    for (const key of Object.keys(pattern)) {
      const why = mismatch(pattern[key], value[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (why) return why;
    }
    return null;
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(value)) return `${here}: expected an array`;
    if (value.length !== pattern.length) return `${here}: ${value.length} elements, expected ${pattern.length}`;
    for (let i = 0; i < pattern.length; i++) {
      const why = mismatch(pattern[i], value[i], `${pointer}/${i}`);
      if (why) return why;
    }
    return null;
  }
  return pattern === value ? null : `${here}: ${JSON.stringify(value)}, expected ${JSON.stringify(pattern)}`;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function runDriver(args, scenario, reportPath) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [args.driver, '--scenario', scenario, '--fake-claude', args['fake-claude']], {
      env: { ...process.env, FAKE_CLAUDE_REPORT: reportPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), Number(args['timeout-ms']));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

function checkObservations(expect, observations, failures) {
  let from = 0;
  for (const [i, pattern] of (expect.observe ?? []).entries()) {
    const at = observations.findIndex((obs, j) => j >= from && mismatch(pattern, obs) === null);
    if (at < 0) {
      const candidates = observations.slice(from).filter((obs) => obs.obs === pattern.obs);
      const closest = candidates.length
        ? `; closest ${JSON.stringify(candidates[0])} differs at ${mismatch(pattern, candidates[0])}`
        : `; no '${pattern.obs}' observation after #${from}`;
      failures.push(`observe[${i}] ${JSON.stringify(pattern)} not found in order${closest}`);
      return;
    }
    from = at + 1;
  }
  for (const [i, pattern] of (expect.absent ?? []).entries()) {
    const hit = observations.find((obs) => mismatch(pattern, obs) === null);
    if (hit) failures.push(`absent[${i}] ${JSON.stringify(pattern)} matched ${JSON.stringify(hit)}`);
  }
}

function checkReport(expect, reportPath, failures) {
  let report;
  try {
    report = readJson(reportPath);
  } catch (err) {
    failures.push(`fake-claude report ${reportPath}: ${err.message}`);
    return;
  }
  const why = mismatch(expect.fake_claude ?? {}, report);
  if (!why) return;
  const lines = [`fake-claude report differs at ${why}`];
  const f = report.failure;
  if (f) {
    lines.push(`  ${f.location ?? '?'}: ${f.kind}: ${f.message}`);
    if (f.expected !== undefined) lines.push(`  expected: ${JSON.stringify(f.expected)}`);
    if (f.closest?.line !== undefined) lines.push(`  closest:  ${f.closest.line}`);
    for (const d of f.closest?.differences ?? []) lines.push(`  at ${d.pointer}: ${d.reason}`);
  }
  for (const e of report.errors ?? []) lines.push(`  ${e.file}:${e.line}: ${e.reason}`);
  for (const entry of report.leftover ?? []) lines.push(`  leftover SDK line: ${entry.line}`);
  failures.push(lines.join('\n'));
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`run-case.mjs: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const scenario = resolve(`${args.case}.ndjson`);
  let expect;
  try {
    expect = readJson(`${args.case}.expect.json`);
  } catch (err) {
    process.stderr.write(`run-case.mjs: ${args.case}.expect.json: ${err.message}\n`);
    return 2;
  }

  const work = mkdtempSync(join(tmpdir(), 'ts-sdk-compat-'));
  const reportPath = join(work, 'report.json');
  try {
    const run = await runDriver(args, scenario, reportPath);
    process.stdout.write(`--- observations (${scenario})\n${run.stdout}`);
    if (run.stderr) process.stdout.write(`--- driver stderr\n${run.stderr}`);
    if (run.code === null) {
      process.stdout.write(`FAIL: driver killed by ${run.signal} after ${args['timeout-ms']} ms\n`);
      return 3;
    }
    const failures = [];
    const driverExit = expect.driver_exit ?? 0;
    if (run.code !== driverExit) failures.push(`driver exited with ${run.code}, expected ${driverExit}`);
    const observations = [];
    for (const [i, line] of run.stdout.split('\n').entries()) {
      if (line === '') continue;
      try {
        observations.push(JSON.parse(line));
      } catch (err) {
        failures.push(`observation line ${i + 1} is not JSON: ${err.message}`);
      }
    }
    checkReport(expect, reportPath, failures);
    checkObservations(expect, observations, failures);
    for (const failure of failures) process.stdout.write(`FAIL: ${failure}\n`);
    if (failures.length === 0) process.stdout.write('PASS\n');
    return failures.length === 0 ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
