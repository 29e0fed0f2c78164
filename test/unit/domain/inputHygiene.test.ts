import { expect } from 'chai';
import { CANONICAL_UUID, checkStrings, jsonDepth, parseJsonText, unsafeText } from '../../../src/domain/inputHygiene';
import { isStorableDateTime } from '../../../src/http/validate';

describe('input hygiene rules', () => {
  it('finds NUL and unpaired surrogates, and lets paired ones (emoji) through', () => {
    expect(unsafeText('plain')).to.equal(null);
    expect(unsafeText('smile 😀')).to.equal(null);
    expect(unsafeText('a\u0000b')).to.match(/NUL/);
    expect(unsafeText('\ud800')).to.match(/surrogates/);
    expect(unsafeText('x\udc00y')).to.match(/surrogates/);
    expect(unsafeText('\udc00\ud800')).to.match(/surrogates/);
  });

  it('measures nesting outside strings, escapes included', () => {
    expect(jsonDepth('{}')).to.equal(1);
    expect(jsonDepth('[[[1]],{"a":[2]}]')).to.equal(3);
    expect(jsonDepth('{"a":"[[[[\\"]]"}')).to.equal(1);
    expect(jsonDepth('"just a string"')).to.equal(0);
  });

  it('parses bounded JSON and names the path of a bad string', () => {
    expect(parseJsonText('{"a":[1,"b"]}')).to.deep.equal({ a: [1, 'b'] });
    expect(() => parseJsonText('['.repeat(65) + ']'.repeat(65))).to.throw().with.property('details', 'body: JSON nested deeper than 64 levels');
    expect(parseJsonText('['.repeat(64) + ']'.repeat(64))).to.be.an('array');
    expect(() => parseJsonText('{"a":[1,"\\u0000"]}', 'payload')).to.throw().with.property('details', 'payload.a.1: must not contain NUL characters');
    expect(() => parseJsonText('{oops')).to.throw('Malformed JSON body');
    expect(() => checkStrings({ 'k\u0000': 1 }, 'body')).to.throw().with.property('details', 'body: a field name must not contain NUL characters');
  });

  it('takes only the canonical UUID form and storable dates', () => {
    expect(CANONICAL_UUID.test('6ba7b810-9dad-11d1-80b4-00c04fd430c8')).to.equal(true);
    expect(CANONICAL_UUID.test('urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8')).to.equal(false);
    expect(CANONICAL_UUID.test('0'.repeat(36))).to.equal(false);
    expect(isStorableDateTime('2026-11-25T02:00:00Z')).to.equal(true);
    expect(isStorableDateTime('0001-01-01T00:00:00+01:00')).to.equal(true);
    expect(isStorableDateTime('0000-01-01T00:00:00Z')).to.equal(false);
    expect(isStorableDateTime('2026-02-30T00:00:00Z')).to.equal(false);
    expect(isStorableDateTime('yesterday')).to.equal(false);
  });
});
