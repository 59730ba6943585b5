// Turns fake-claude's per-run reports (FAKE_CLAUDE_RUNS/run-N.json, docs/fake-claude.md) into the
// text `harness replay` prints for them (harness/src/run_verdicts.cpp print_runs), so a failing
// test shows the same file:line, expected, closest line and differing fields as the harness does.
// Pure functions: no I/O.

const LEFTOVER_SHOWN = 5;
const LEFTOVER_BYTES = 160;

function shortened(line) {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= LEFTOVER_BYTES) return line;
  return `${bytes.subarray(0, LEFTOVER_BYTES).toString('utf8')}… (${bytes.length} bytes)`;
}

/** One run's findings, each line prefixed; mirrors print_one in run_verdicts.cpp. */
export function reportLines(report, prefix) {
  const out = [];
  for (const e of Array.isArray(report.errors) ? report.errors : []) {
    out.push(`${prefix}${e.file ?? ''}:${e.line ?? 0}: ${e.reason ?? ''}`);
  }
  for (const note of Array.isArray(report.notes) ? report.notes : []) {
    if (typeof note === 'string') out.push(`${prefix}note: ${note}`);
  }
  const f = report.failure;
  if (f && typeof f === 'object') {
    out.push(`${prefix}${f.location ?? ''}: ${f.kind ?? ''}: ${f.message ?? ''}`);
    if ('expected' in f) out.push(`${prefix}expected: ${JSON.stringify(f.expected)}`);
    if (f.closest && typeof f.closest === 'object') {
      out.push(`${prefix}closest:  ${f.closest.line ?? ''}`);
      for (const d of Array.isArray(f.closest.differences) ? f.closest.differences : []) {
        out.push(`${prefix}  at ${d.pointer ?? ''}: ${d.reason ?? ''}`);
      }
    }
  }
  const leftover = Array.isArray(report.leftover) ? report.leftover : [];
  if (leftover.length > 0) {
    out.push(`${prefix}SDK lines no step consumed (${leftover.length}):`);
    leftover.slice(0, LEFTOVER_SHOWN).forEach((entry) => out.push(`${prefix}  ${shortened(entry.line ?? '')}`));
    if (leftover.length > LEFTOVER_SHOWN) {
      out.push(`${prefix}  … ${leftover.length - LEFTOVER_SHOWN} more in the report`);
    }
  }
  return out;
}

/**
 * The verdict over every run: {verdict: 'pass'|'fail'|'error', text}. `runs` are reports with a
 * `run` number, in order; `parts` the header line of each part of the scenario file.
 */
export function combineRuns(scenario, parts, runs) {
  const lines = [];
  let verdict = 'pass';
  let failed = 0;
  for (const run of runs) {
    const v = run.verdict ?? 'fail';
    if (v === 'error') verdict = 'error';
    else if (v !== 'pass' && verdict === 'pass') verdict = 'fail';
    if (v !== 'pass') failed++;
    lines.push(`fake-claude: run ${run.run}: verdict ${v} (argv ${JSON.stringify(run.argv ?? [])})`);
    lines.push(...reportLines(run, '    '));
  }
  let missing = null;
  if (parts.length > 1 && runs.length < parts.length) {
    if (verdict === 'pass') verdict = 'fail';
    const first = runs.length + 1;
    missing =
      `  ${scenario}:${parts[first - 1]}: run_missing: the scenario describes ${parts.length} runs ` +
      `but the client started claude ${runs.length} time(s): part ${first} never ran`;
  }
  lines.push(`fake-claude: verdict ${verdict} (${scenario}): ${runs.length} run(s), ${failed} failed`);
  if (missing) lines.push(missing);
  return { verdict, text: lines.join('\n') };
}

/** 1-based line numbers of the part headers of a (multi-run) scenario file (docs/scenario.md). */
export function partHeaders(text) {
  const headers = [];
  text.split('\n').forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) return;
    try {
      const value = JSON.parse(trimmed);
      if (value && typeof value === 'object' && !Array.isArray(value) && ('scenario' in value || 'recording' in value)) {
        headers.push(index + 1);
      }
    } catch {
      // Not JSON: fake-claude itself rejects the file with file:line; nothing to count here.
    }
  });
  return headers;
}
