#!/usr/bin/env node
// The smallest Node.js stand-in for the Claude Code CLI that an SDK can initialize against.
// Row (a) of bench/compare times spawn -> `initialize` reply for it: the floor any fake CLI written
// for Node pays (runtime start-up), next to fake-claude.
// Reads NDJSON from stdin; answers each `initialize` control request with a success response and
// ignores every other line. Exit codes: 0 at stdin EOF, 2 on an unexpected argument.
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
if (args.length > 0) {
  if (args[0] === '--help' || args[0] === '-h') {
    process.stdout.write('usage: fake-cli.mjs < NDJSON\nAnswers initialize control requests; ' +
      'exit 0 at stdin EOF, 2 on an unexpected argument.\n');
    process.exit(0);
  }
  process.stderr.write(`fake-cli.mjs: unexpected argument ${args[0]}\n`);
  process.exit(2);
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    continue;
  }
  if (frame?.type === 'control_request' && frame.request?.subtype === 'initialize') {
    process.stdout.write(JSON.stringify({
      type: 'control_response',
      response: { subtype: 'success', request_id: frame.request_id,
                  response: { commands: [], models: [] } },
    }) + '\n');
  }
}
