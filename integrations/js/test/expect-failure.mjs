#!/usr/bin/env node
// Runs a test command that must FAIL and checks that its output carries fake-claude's mismatch
// text: usage `expect-failure.mjs --want TEXT [--want TEXT]... -- CMD ARGS...`.
// Exit codes: 0 the command failed with every TEXT in its output, 1 it passed or a TEXT is
// missing (the output is printed), 2 usage.
import { spawnSync } from 'node:child_process';
import process from 'node:process';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const wants = [];
for (let i = 0; i < split; i += 2) {
  if (args[i] !== '--want' || args[i + 1] === undefined) {
    console.error(`expect-failure: bad argument '${args[i]}'`);
    process.exit(2);
  }
  wants.push(args[i + 1]);
}
const command = split < 0 ? [] : args.slice(split + 1);
if (command.length === 0 || wants.length === 0) {
  console.error('usage: expect-failure.mjs --want TEXT [--want TEXT]... -- CMD ARGS...');
  process.exit(2);
}

const run = spawnSync(command[0], command.slice(1), { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
process.stdout.write(output);
const missing = wants.filter((want) => !output.includes(want));
if (run.status === 0) {
  console.error('expect-failure: the command passed, but it must fail');
  process.exit(1);
}
if (run.error || missing.length > 0) {
  console.error(`expect-failure: ${run.error ?? `missing from the output: ${JSON.stringify(missing)}`}`);
  process.exit(1);
}
console.log(`expect-failure: failed as it must (exit ${run.status}) and named ${JSON.stringify(wants)}`);
