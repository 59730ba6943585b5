// Types for @claude-harness/fake-claude (index.mjs).
export interface RunReport {
  run: number;
  verdict: 'pass' | 'fail' | 'error' | string;
  argv?: string[];
  failure?: {
    kind: string;
    location: string;
    message: string;
    expected?: unknown;
    closest?: { line: string; differences?: { pointer: string; reason: string }[] };
  };
  [key: string]: unknown;
}

export interface FakeClaudeOptions {
  /** fake-claude executable; default FAKE_CLAUDE_BIN, then `fake-claude` on PATH. */
  fakeClaudeBin?: string;
  /** How long verdict() waits for started runs to report (ms, default 15000). */
  timeoutMs?: number;
}

export interface FakeClaude {
  /** Executable `claude` shim: give it to pathToClaudeCodeExecutable. */
  readonly path: string;
  readonly dir: string;
  readonly runsDir: string;
  readonly scenario: string;
  readonly fakeClaudeBin: string;
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  reports(): Promise<RunReport[]>;
  /** Resolves with every run's report when all passed; rejects with the mismatch text otherwise. */
  verdict(options?: { keep?: boolean }): Promise<RunReport[]>;
  dispose(): Promise<void>;
}

export function fakeClaude(scenarioPath: string, options?: FakeClaudeOptions): Promise<FakeClaude>;
export function findFakeClaude(explicit?: string, env?: NodeJS.ProcessEnv): Promise<string>;
