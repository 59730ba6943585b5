// Fails on purpose (run by expect-failure.mjs): the recording allowed Bash, this client denies it,
// so fc.verdict() rejects with fake-claude's mismatch text naming the field that differs.
import { fileURLToPath } from 'node:url';

import { fakeClaude } from '../../index.mjs';
import { createMarker } from '../client.mjs';

const recording = fileURLToPath(
  new URL('../../../../scenarios/recorded/cli-2.1.332/tool-allowed/ts.ndjson', import.meta.url),
);

test('a client that denies what the recording allowed', async () => {
  const fc = await fakeClaude(recording);
  await createMarker(fc.path, 'deny');
  await fc.verdict();
});
