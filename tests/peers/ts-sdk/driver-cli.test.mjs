// The TypeScript driver's command-line contract (docs/drivers.md): usage, unreadable specs and
// unsupported features are told apart by exit code before any SDK session starts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const driver = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drivers/ts/driver.mjs');
const work = mkdtempSync(join(tmpdir(), 'ts-driver-cli-'));
// Never started: every case here ends before the SDK would spawn it.
const unusedExecutable = join(work, 'not-spawned');
after(() => rmSync(work, { recursive: true, force: true }));

function runDriver(args, env = {}) {
  const clean = { ...process.env };
  delete clean.FAKE_CLAUDE;
  delete clean.FAKE_CLAUDE_SCENARIO;
  delete clean.CLAUDE_HARNESS_DRIVER_SPEC;
  return spawnSync(process.execPath, [driver, ...args], { env: { ...clean, ...env }, encoding: 'utf8' });
}

function specFile(name, spec) {
  const path = join(work, name);
  writeFileSync(path, typeof spec === 'string' ? spec : JSON.stringify(spec));
  return path;
}

function observations(stdout) {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

test('--help prints usage with the exit codes and exits 0', () => {
  const run = runDriver(['--help']);
  assert.equal(run.status, 0);
  assert.match(run.stdout, /usage: driver\.mjs/);
  assert.match(run.stdout, /4 the spec needs a feature this driver lacks/);
});

test('an unknown argument is a usage error (exit 2)', () => {
  const run = runDriver(['--frobnicate']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /unknown argument '--frobnicate'/);
});

test('without a fake-claude path the driver exits 2 and says how to give one', () => {
  const run = runDriver(['--spec', specFile('plain.json', { prompt: 'hi' })]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /FAKE_CLAUDE/);
});

test('a spec that is not JSON is reported with file and line (exit 2)', () => {
  const path = specFile('broken.json', '{"prompt": ');
  const run = runDriver(['--spec', path, '--fake-claude', unusedExecutable]);
  assert.equal(run.status, 2);
  assert.ok(run.stderr.includes(`${path}:1: driver spec is not valid JSON`), run.stderr);
});

test('an unknown control call is an unsupported feature (exit 4)', () => {
  const path = specFile('call.json', { prompt: 'hi', control: [{ call: 'teleport' }] });
  const run = runDriver(['--spec', path, '--fake-claude', unusedExecutable]);
  assert.equal(run.status, 4);
  assert.equal(observations(run.stdout)[0].feature, 'control.teleport');
});

test('an unknown option is an unsupported feature (exit 4)', () => {
  const path = specFile('option.json', { prompt: 'hi', options: { warp_speed: 9 } });
  const run = runDriver(['--spec', path, '--fake-claude', unusedExecutable]);
  assert.equal(run.status, 4);
  assert.equal(observations(run.stdout)[0].feature, 'options.warp_speed');
});

test('a scenario header without "driver" and no --spec is a usage error naming the line', () => {
  const path = specFile('no-driver.ndjson', '# comment\n\n{"scenario":1,"name":"x"}\n{"exit":0}\n');
  const run = runDriver(['--scenario', path, '--fake-claude', unusedExecutable]);
  assert.equal(run.status, 2);
  assert.ok(run.stderr.includes(`${path}:3: scenario header has no "driver" member`), run.stderr);
});

test('the spec is taken from CLAUDE_HARNESS_DRIVER_SPEC and the path from FAKE_CLAUDE', () => {
  const path = specFile('env.json', { prompt: 'hi', options: { warp_speed: 9 } });
  const run = runDriver([], { CLAUDE_HARNESS_DRIVER_SPEC: path, FAKE_CLAUDE: unusedExecutable });
  assert.equal(run.status, 4);
  assert.equal(observations(run.stdout)[0].feature, 'options.warp_speed');
});

test('a spec that is not a JSON object is a usage error (exit 2)', () => {
  const path = specFile('array.json', '[1]');
  const run = runDriver(['--spec', path, '--fake-claude', unusedExecutable]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /driver spec must be a JSON object/);
});

test('an MCP tool whose input_schema is not an object schema is rejected (exit 2)', () => {
  const tool = { name: 'echo', input_schema: { type: 'string' }, returns: { content: [] } };
  const path = specFile('schema.json', { prompt: 'hi', mcp_servers: [{ name: 'srv', tools: [tool] }] });
  const run = runDriver(['--spec', path, '--fake-claude', unusedExecutable]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /tool 'echo': "input_schema" must describe an object/);
});
