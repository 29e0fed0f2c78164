/**
 * The original service's response schemas (its OpenAPI 2.0.0, the parts kept in
 * test/fixtures/original-openapi/schemas.json, agent names as `agent_N`), for tests that check
 * Hangar answers as an existing client of the original would read them.
 */
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const originalSchemas = (
  JSON.parse(readFileSync(join(__dirname, '../fixtures/original-openapi/schemas.json'), 'utf8')) as { schemas: Record<string, object> }
).schemas;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'original', components: { schemas: originalSchemas } });

/** Asserts `body` is a valid `name` of the original's document (required fields, types, enums). */
export function expectShape(name: string, body: unknown): void {
  const validate = ajv.getSchema(`original#/components/schemas/${name}`);
  if (!validate) throw new Error(`${name} is not among the original's schemas kept in the fixture`);
  const ok = validate(body);
  expect(ok, `${name}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 1500)}`).to.equal(true);
}
