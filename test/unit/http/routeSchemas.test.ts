import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

/**
 * A route's schemas live in src/schemas/<group>.ts, once (docs/architecture.md, "Where a new
 * operation goes"): route files only reference them. This catches a schema written inline again.
 */
describe('http: route files declare no schema of their own', () => {
  const dir = join(__dirname, '..', '..', '..', 'src', 'http', 'routes');
  // With the receivers' routes in routes/receivers/.
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));

  // JSON Schema's own type keywords; the event payloads routes send (`type: 'output'`) use none.
  const schemaType = /\btype:\s*(\[\s*)?'(object|array|string|integer|number|boolean|null)'/;
  // The builders of src/schemas/common.ts, called with a route's own properties.
  const builder = /import\s*\{[^}]*\b(object|pageQuery|pageEnvelope)\b[^}]*\}\s*from\s*'[./]*\/schemas\/common'/;

  it('finds the route files', () => expect(files.length).to.be.greaterThan(20));

  for (const file of files) {
    it(file, () => {
      const source = readFileSync(join(dir, file), 'utf8');
      const line = source.split('\n').findIndex((l) => schemaType.test(l));
      expect(line, `${file}:${line + 1} declares a JSON Schema type: move the schema to src/schemas/`).to.equal(-1);
      expect(builder.test(source), `${file} builds a schema with src/schemas/common.ts: move it to src/schemas/`).to.equal(false);
    });
  }
});
