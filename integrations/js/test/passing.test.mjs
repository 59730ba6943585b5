// node:test and vitest both run this file: a client that answers as the recording did passes.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import { fakeClaude } from '../index.mjs';
import { createMarker } from './client.mjs';

const recording = fileURLToPath(
  new URL('../../../scenarios/recorded/cli-2.1.332/tool-allowed/ts.ndjson', import.meta.url),
);

test('a client that allows the tool, as the recording did, passes', async () => {
  const fc = await fakeClaude(recording);
  const messages = await createMarker(fc.path, 'allow');
  const reports = await fc.verdict();
  assert.equal(reports.length, 1);
  assert.equal(reports[0].verdict, 'pass');
  assert.equal(messages.at(-1).type, 'result');
});
