// fakeClaude(scenarioPath): a `claude` executable that plays a scenario with fake-claude, for tests
// of code built on a Claude Agent SDK, and the verdict over every run that executable started.
//
// How it fails: fakeClaude() rejects when fake-claude cannot be found or the scenario cannot be
// read; verdict() rejects with the mismatch text (file:line, expected, closest, differing field)
// when a run failed, when a run was killed before it reported, when a part of a multi-run scenario
// never ran, or when no run happened at all.
// What it costs: one temporary directory (removed by verdict() or dispose()); verdict() polls the
// runs directory every 20 ms until each started run has reported (at most `timeoutMs`).
// No runtime dependencies: node's fs, os and path only.

import { constants } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import process from 'node:process';

import { combineRuns, partHeaders } from './verdict-text.mjs';

export { combineRuns, partHeaders, reportLines } from './verdict-text.mjs';

const POLL_MS = 20;
const DEFAULT_TIMEOUT_MS = 15000; // as long as harness waits for a run after its client exited

async function executable(path) {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where fake-claude is: the option, then FAKE_CLAUDE_BIN, then PATH. */
export async function findFakeClaude(explicit, env = process.env) {
  if (explicit) {
    if (await executable(explicit)) return resolve(explicit);
    throw new Error(`fakeClaude: fakeClaudeBin '${explicit}' is not an executable file`);
  }
  if (env.FAKE_CLAUDE_BIN) {
    if (await executable(env.FAKE_CLAUDE_BIN)) return resolve(env.FAKE_CLAUDE_BIN);
    throw new Error(`fakeClaude: FAKE_CLAUDE_BIN='${env.FAKE_CLAUDE_BIN}' is not an executable file`);
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && (await executable(join(dir, 'fake-claude')))) return resolve(dir, 'fake-claude');
  }
  throw new Error(
    'fakeClaude: fake-claude not found: pass {fakeClaudeBin}, set FAKE_CLAUDE_BIN, or put it on PATH',
  );
}

// POSIX shell single-quoting: the shim must survive any path.
const quoted = (text) => `'${text.replaceAll("'", "'\\''")}'`;

function shimScript(fakeClaudeBin, scenario, runsDir) {
  return [
    '#!/bin/sh',
    '# Written by @claude-harness/fake-claude: every run claims a number in FAKE_CLAUDE_RUNS.',
    `FAKE_CLAUDE_SCENARIO=${quoted(scenario)}`,
    `FAKE_CLAUDE_RUNS=${quoted(runsDir)}`,
    'export FAKE_CLAUDE_SCENARIO FAKE_CLAUDE_RUNS',
    'unset FAKE_CLAUDE_REPORT',
    `exec ${quoted(fakeClaudeBin)} "$@"`,
    '',
  ].join('\n');
}

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function readText(path) {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

// The runs fake-claude sessions claimed (run-N.started holds the pid), with their reports once
// written. A run whose process is gone without a report is final too (`no_report`).
async function scanRuns(runsDir, scenario) {
  const numbers = (await readdir(runsDir))
    .map((name) => /^run-(\d+)\.started$/.exec(name))
    .filter(Boolean)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const runs = [];
  for (const number of numbers) {
    const pid = Number.parseInt((await readText(join(runsDir, `run-${number}.started`))) ?? '', 10);
    const text = await readText(join(runsDir, `run-${number}.json`));
    let report = null;
    if (text !== null) {
      try {
        report = { ...JSON.parse(text), run: number };
      } catch {
        report = null; // being written, or broken: decided below
      }
    }
    const gone = !alive(pid);
    if (report === null && gone) {
      const why = text === null ? 'it was killed or crashed before writing one' : 'its report does not parse';
      report = {
        run: number,
        verdict: 'fail',
        failure: {
          kind: 'no_report',
          location: scenario,
          message: `fake-claude (run ${number}, pid ${pid}) ended without a report: ${why}`,
        },
      };
    }
    runs.push({ number, report });
  }
  return runs;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Makes a temporary directory holding an executable `claude` that runs fake-claude on `scenarioPath`.
 * options: {fakeClaudeBin, timeoutMs (default 15000)}.
 */
export async function fakeClaude(scenarioPath, options = {}) {
  if (typeof scenarioPath !== 'string' || scenarioPath === '') {
    throw new TypeError('fakeClaude: scenarioPath must be a non-empty string');
  }
  const scenario = isAbsolute(scenarioPath) ? scenarioPath : resolve(scenarioPath);
  const scenarioText = await readText(scenario);
  if (scenarioText === null) throw new Error(`fakeClaude: ${scenario}: cannot read the scenario`);
  const bin = await findFakeClaude(options.fakeClaudeBin);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const dir = await mkdtemp(join(tmpdir(), 'fake-claude-'));
  const runsDir = join(dir, 'runs');
  await mkdir(runsDir, { mode: 0o700 });
  const path = join(dir, 'claude');
  await writeFile(path, shimScript(bin, scenario, runsDir), { mode: 0o700 });
  await chmod(path, 0o700);

  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await rm(dir, { recursive: true, force: true });
  };

  return {
    /** The `claude` executable: pathToClaudeCodeExecutable, cli_path, or first on PATH. */
    path,
    /** The directory holding it (prepend to PATH for code that finds `claude` itself). */
    dir,
    runsDir,
    scenario,
    fakeClaudeBin: bin,
    /** Environment for a child process that looks `claude` up on PATH. */
    env(base = process.env) {
      return {
        ...base,
        PATH: `${dir}${delimiter}${base.PATH ?? ''}`,
        FAKE_CLAUDE_SCENARIO: scenario,
        FAKE_CLAUDE_RUNS: runsDir,
      };
    },
    /** The reports so far, without waiting: [{run, verdict, …}] (runs still playing are left out). */
    async reports() {
      return (await scanRuns(runsDir, scenario)).filter((r) => r.report).map((r) => r.report);
    },
    /**
     * Waits until every run that started has ended (at most timeoutMs), then resolves with the
     * reports, or rejects with the mismatch text. Removes the directory unless {keep: true}.
     */
    async verdict({ keep = false } = {}) {
      if (disposed) throw new Error('fakeClaude: verdict() after dispose()');
      const deadline = Date.now() + timeoutMs;
      let runs = await scanRuns(runsDir, scenario);
      while (runs.some((r) => r.report === null) && Date.now() < deadline) {
        await sleep(POLL_MS);
        runs = await scanRuns(runsDir, scenario);
      }
      const reports = runs.map(
        (r) =>
          r.report ?? {
            run: r.number,
            verdict: 'fail',
            failure: {
              kind: 'no_report',
              location: scenario,
              message: `fake-claude (run ${r.number}) still had not reported ${timeoutMs} ms after verdict() was asked`,
            },
          },
      );
      if (!keep) await dispose();
      if (reports.length === 0) {
        throw new Error(
          `fake-claude: no run of ${path} happened (no fake-claude session started): no verdict. ` +
            'Was it given to the SDK (pathToClaudeCodeExecutable) or put first on PATH?',
        );
      }
      const { verdict, text } = combineRuns(scenario, partHeaders(scenarioText), reports);
      if (verdict !== 'pass') {
        const error = new Error(text);
        error.reports = reports;
        throw error;
      }
      return reports;
    },
    dispose,
  };
}
