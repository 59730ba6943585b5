// The helper's own contract, no SDK involved: finding fake-claude, the shim, and verdicts for
// runs that never happened, that passed, and that a multi-run scenario missed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

import { fakeClaude, findFakeClaude, partHeaders } from '../index.mjs';

const work = mkdtempSync(join(tmpdir(), 'js-helper-contract-'));
after(() => rmSync(work, { recursive: true, force: true }));

function scenario(name, lines) {
  const path = join(work, name);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

const printOnly = [{ scenario: 1, name: 'version probe is not a run' }, { exit: 0 }];

test('fake-claude is found through FAKE_CLAUDE_BIN, and a bad one is named', async () => {
  assert.ok(process.env.FAKE_CLAUDE_BIN, 'the test needs FAKE_CLAUDE_BIN');
  assert.equal(await findFakeClaude(undefined, { FAKE_CLAUDE_BIN: process.env.FAKE_CLAUDE_BIN }), process.env.FAKE_CLAUDE_BIN);
  await assert.rejects(findFakeClaude(undefined, { FAKE_CLAUDE_BIN: join(work, 'nope') }), /FAKE_CLAUDE_BIN=.*nope.* is not an executable/);
  await assert.rejects(findFakeClaude(undefined, { PATH: work }), /fake-claude not found/);
});

test('an unreadable scenario is refused before anything is made', async () => {
  await assert.rejects(fakeClaude(join(work, 'missing.ndjson')), /missing\.ndjson: cannot read the scenario/);
});

test('no run at all is a failure, not a pass', async () => {
  const fc = await fakeClaude(scenario('none.ndjson', printOnly));
  // --version is a probe, not a session: it claims no run.
  await promisify(execFile)(fc.path, ['--version']);
  await assert.rejects(fc.verdict(), /no run of .*claude happened \(no fake-claude session started\)/);
});

test('a part that no run played fails with run_missing at its header line', async () => {
  const two = [
    { scenario: 1, name: 'first' },
    { expect: { type: 'user' } },
    { exit: 0 },
    { scenario: 1, name: 'second' },
    { exit: 0 },
  ];
  const path = scenario('two.ndjson', two);
  assert.deepEqual(partHeaders(JSON.stringify(two[0]) + '\n{"exit":0}\n' + JSON.stringify(two[3])), [1, 3]);
  const fc = await fakeClaude(path);
  const child = execFile(fc.path, ['-p', '--output-format', 'stream-json', '--input-format', 'stream-json', '--verbose']);
  child.stdin.end(JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } }) + '\n');
  await new Promise((done) => child.on('exit', done));
  await assert.rejects(fc.verdict(), (error) => {
    assert.match(error.message, /fake-claude: run 1: verdict pass/);
    assert.match(error.message, new RegExp(`two\\.ndjson:4: run_missing: .*part 2 never ran`));
    return true;
  });
});
