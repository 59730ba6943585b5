#!/usr/bin/env node
// The Node.js reference for bench/compare-peers: what the TypeScript SDK does with the CLI's
// stdout (readline, then JSON.parse per non-blank line). Like parse-file, it reads FILE into
// memory first and times only the splitting and parsing, feeding 64 KiB chunks as a pipe would.
// Prints {"bytes":N,"lines":N,"seconds":S,"mb_per_s":X,"cpu_seconds":C,"cpu_mb_per_s":Y}
// (MB = 10^6 bytes; seconds are wall-clock, cpu_seconds the process's CPU time, GC threads included).
// Exit codes: 0 measured, 2 usage error or FILE unreadable.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';

const usage = 'usage: node-readline.mjs FILE\n' +
  'Times readline + JSON.parse of FILE (NDJSON) and prints\n' +
  '{"bytes":N,"lines":N,"seconds":S,"mb_per_s":X,"cpu_seconds":C,"cpu_mb_per_s":Y}\n' +
  '(MB = 10^6 bytes; seconds are wall-clock, cpu_seconds the process CPU time).\n' +
  'Exit codes: 0 measured, 2 usage error or FILE unreadable.\n';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
if (args.length !== 1) {
  process.stderr.write(usage);
  process.exit(2);
}

let data;
try {
  data = readFileSync(args[0]);
} catch (error) {
  process.stderr.write(`node-readline: cannot read ${args[0]}: ${error.message}\n`);
  process.exit(2);
}

const chunkSize = 64 * 1024;
function* chunks() {
  for (let pos = 0; pos < data.length; pos += chunkSize) yield data.subarray(pos, pos + chunkSize);
}

let lines = 0;
let failed = 0;
const cpuStart = process.cpuUsage();
const start = process.hrtime.bigint();
const reader = createInterface({ input: Readable.from(chunks()), crlfDelay: Infinity });
reader.on('line', (line) => {
  if (line.trim() === '') return;
  ++lines;
  try {
    JSON.parse(line);
  } catch {
    ++failed;
  }
});
reader.on('close', () => {
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (failed !== 0) process.stderr.write(`node-readline: ${args[0]}: ${failed} lines not parsed\n`);
  const rate = (span) => Number((span > 0 ? data.length / span / 1e6 : 0).toFixed(1));
  process.stdout.write(JSON.stringify({
    bytes: data.length, lines, seconds: Number(seconds.toFixed(6)), mb_per_s: rate(seconds),
    cpu_seconds: Number(cpuSeconds.toFixed(6)), cpu_mb_per_s: rate(cpuSeconds),
  }) + '\n');
});
