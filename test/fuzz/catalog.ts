/**
 * The fixed catalogues of bad input the fuzzer draws from: UUIDs in forms PostgreSQL refuses,
 * dates it cannot store (or that leave its range once in UTC), strings a server must refuse or
 * store faithfully, path segments, malformed bodies, content types, methods, and raw requests
 * Node's HTTP parser refuses.
 */
const SAMPLE_UUID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

/** Strings that are UUID-ish but not the canonical 36-character form, and canonical edge cases. */
export const badUuids = (real: string = SAMPLE_UUID): string[] => [
  `urn:uuid:${real}`,
  '0'.repeat(36),
  '0'.repeat(32),
  real.replace(/-/g, ''),
  `{${real}}`,
  real.toUpperCase(),
  `${real}\n`,
  ` ${real}`,
  `${real}0`,
  real.slice(0, 35),
  `${real.slice(0, 8)}-${real.slice(9)}`.replace('-', ''),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'gggggggg-gggg-gggg-gggg-gggggggggggg',
  `${real.slice(0, 4)}\u0000${real.slice(5)}`,
];

/** Date-times outside PostgreSQL's range, impossible ones, and ones that leave the range only in UTC. */
export const badDates: string[] = [
  '0000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-14:00',
  '0001-01-01T00:00:00+14:00',
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2016-12-31T23:59:60Z',
  '2024-01-01T23:59:60Z',
  '2024-01-01T00:00:00+25:00',
  '2024-01-01T00:00:00',
  '2024-01-01',
  '2024-01-01T00:00:00.1234567891234Z',
  '1970-01-01T00:00:00Z',
  '294277-01-01T00:00:00Z',
];

/** Strings a server must refuse or store faithfully, never crash on. */
export const nastyStrings: string[] = [
  '',
  ' ',
  '\t\n',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\udbff\udbff',
  '\ufffe\uffff',
  '\u202eevil',
  '💥'.repeat(50),
  'e\u0301\u0301\u0301',
  '\u0001\u001f\u007f',
  '\r\nX-Injected: 1',
  "' OR 1=1 --",
  '"; DROP TABLE replicas; --',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%s%n%x',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '1e400',
  'NaN',
  '-0',
  '__proto__',
  'constructor',
  'global',
];

/** Methods no route has (and some that Node's parser does not know). */
export const UNKNOWN_METHODS = ['PROPFIND', 'PURGE', 'LINK', 'UNLINK', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'SEARCH', 'REPORT', 'QUERY', 'SOURCE', 'FOO', 'TRACE', 'OPTIONS', 'HEAD'];

/** Path segments that are wrong in form, encoding or size (already percent-encoded). */
export const badSegments: string[] = [
  ...badUuids().map(encodeURIComponent),
  '',
  '%20',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%AE',
  '%FF%FE',
  '%',
  '%zz',
  '%2F',
  '..',
  '.',
  '%2e%2e',
  'a'.repeat(10_000),
  encodeURIComponent('💥'.repeat(100)),
  'global',
  'null',
  '-1',
  '0',
  '1e400',
  '__proto__',
  'constructor',
  encodeURIComponent("' OR 1=1 --"),
];

/** Bodies that are not JSON, not an object, or JSON that parsers disagree on. */
export const malformedBodies: string[] = [
  '',
  '{',
  '{"a":',
  '[',
  'null',
  'true',
  '1',
  '"text"',
  '[]',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"\\u0000":1}',
  '{"a":1,"a":2}',
  '/* comment */ {}',
  '{"a":-}',
  '{"a":1e999999}',
  `{"a":${'9'.repeat(5000)}}`,
  `${'['.repeat(100_000)}`,
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
  '{"a":"\\x41"}',
  '{"a":"unterminated}',
];

/** Content types a JSON body may be sent under by mistake (or on purpose). */
export const contentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'application/merge-patch+json',
  '*/*',
  'application/json, text/plain',
  'application/jsonx',
  'json',
];

/** Requests Node's HTTP parser refuses, or accepts only just: `[label, bytes]`. */
export function rawRequests(method: string, path: string, key: string): Array<[string, string]> {
  const head = (lines: string[]) => lines.join('\r\n') + '\r\n\r\n';
  const auth = `Authorization: Bearer ${key}`;
  return [
    ['two content lengths', head([`${method} ${path} HTTP/1.1`, 'Host: x', auth, 'Content-Length: 5', 'Content-Length: 6']) + 'hello!'],
    ['bad chunk size', head([`${method} ${path} HTTP/1.1`, 'Host: x', auth, 'Transfer-Encoding: chunked', 'Content-Type: application/json']) + 'zz\r\n{}\r\n0\r\n\r\n'],
    ['chunked and length', head([`${method} ${path} HTTP/1.1`, 'Host: x', auth, 'Transfer-Encoding: chunked', 'Content-Length: 2', 'Content-Type: application/json']) + '2\r\n{}\r\n0\r\n\r\n'],
    ['NUL in a header', head([`${method} ${path} HTTP/1.1`, 'Host: x', auth, 'X-Nul: a\u0000b'])],
    ['headers over 16 KiB', head([`${method} ${path} HTTP/1.1`, 'Host: x', auth, `X-Big: ${'a'.repeat(20_000)}`])],
    ['unknown method', head([`FOO ${path} HTTP/1.1`, 'Host: x', auth])],
    ['HTTP/1.0 without Host', head([`${method} ${path} HTTP/1.0`, auth])],
    ['HTTP/2.0 request line', head([`${method} ${path} HTTP/2.0`, 'Host: x', auth])],
    ['space in the path', head([`${method} ${path}/a b HTTP/1.1`, 'Host: x', auth])],
    ['folded header', head([`${method} ${path} HTTP/1.1`, 'Host: x', 'Authorization: Bearer', ` ${key}`])],
    ['bare LF line ends', `${method} ${path} HTTP/1.1\nHost: x\n${auth}\n\n`],
    ['bytes after the body', head([`${method} ${path} HTTP/1.1`, 'Host: x', auth, 'Content-Type: application/json', 'Content-Length: 2']) + '{}\u0000GARBAGE\r\n\r\n'],
  ];
}

