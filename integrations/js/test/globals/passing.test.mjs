// vitest (--globals) and jest run this file: test() is the runner's global, so the file imports
// nothing from the runner. A client that answers as the recording did passes.
import { fileURLToPath } from 'node:url';

import { fakeClaude } from '../../index.mjs';
import { createMarker } from '../client.mjs';

const recording = fileURLToPath(
  new URL('../../../../scenarios/recorded/cli-2.1.332/tool-allowed/ts.ndjson', import.meta.url),
);

test('a client that allows the tool, as the recording did, passes', async () => {
  const fc = await fakeClaude(recording);
  const messages = await createMarker(fc.path, 'allow');
  const reports = await fc.verdict();
  expect(reports.map((r) => r.verdict)).toEqual(['pass']);
  expect(messages.at(-1).type).toBe('result');
});
