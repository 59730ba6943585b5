// Validates every bundled scenario (scenarios/**/*.ndjson, recordings excepted) against
// docs/scenario.schema.json: the header line against #/definitions/header, each step line
// against #/definitions/step, and a header's `driver` spec against docs/driver-spec.schema.json
// (the schema harness check validates with its own validator). Prints file:line and the schema
// error for each failure.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';

const [root, ajvDir] = process.argv.slice(2);
const require = createRequire(join(ajvDir, 'package.json'));
const Ajv = require('ajv');

const schema = JSON.parse(readFileSync(join(root, 'docs/scenario.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
ajv.addSchema(schema);
const header = ajv.getSchema(`${schema.$id}#/definitions/header`);
const step = ajv.getSchema(`${schema.$id}#/definitions/step`);
// The driver spec's anyOf/if branches constrain members (`required`, `properties`) without
// repeating the parent's declarations or `"type": "object"`, which ajv's strictRequired and
// strictTypes refuse; the other strict checks (unknown keywords, formats) stay on.
const driverSpec = new Ajv({ strict: true, strictRequired: false, strictTypes: false }).compile(JSON.parse(readFileSync(join(root, 'docs/driver-spec.schema.json'), 'utf8')));

function* ndjsonFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* ndjsonFiles(path);
    else if (name.endsWith('.ndjson')) yield path;
  }
}

let files = 0;
let failures = 0;
for (const path of ndjsonFiles(join(root, 'scenarios'))) {
  const lines = readFileSync(path, 'utf8').split('\n');
  let seenHeader = false;
  let isRecording = false;
  lines.forEach((text, index) => {
    if (isRecording || text.trim() === '' || text.trimStart().startsWith('#')) return;
    const where = `${relative(root, path)}:${index + 1}`;
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      console.log(`${where}: invalid JSON: ${e.message}`);
      failures++;
      return;
    }
    if (!seenHeader) {
      seenHeader = true;
      // Recordings and plain NDJSON samples (no scenario header) are not scenarios.
      if (!value || typeof value !== 'object' || !('scenario' in value)) {
        isRecording = true;
        return;
      }
      files++;
    }
    const validate = value && typeof value === 'object' && 'scenario' in value ? header : step;
    if (!validate(value)) {
      console.log(`${where}: ${ajv.errorsText(validate.errors)}`);
      failures++;
    }
    if (validate === header && value.driver !== undefined && !driverSpec(value.driver)) {
      console.log(`${where}: driver spec: ${ajv.errorsText(driverSpec.errors)}`);
      failures++;
    }
  });
}
console.log(`${files} scenario files checked, ${failures} invalid lines`);
if (files === 0) {
  console.log('no scenarios found');
  process.exit(1);
}
process.exit(failures === 0 ? 0 : 1);
