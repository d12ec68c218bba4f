// The socket transport's HTTP/1.1 response reader (load/engine/http1-reader.ts)
// and request bytes (request-bytes.ts): framing by Content-Length, chunks or
// the close, in any split of the bytes, from a buffer the socket reuses; the
// head kept for sampled statuses; anything malformed an error code, never an
// exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headersOf, type Answer } from '../../load/engine/answer.ts';
import { HEAD_TOO_LARGE, MALFORMED, ResponseReader } from '../../load/engine/http1-reader.ts';
import { requestBytes } from '../../load/engine/request-bytes.ts';

interface Read {
  answers: Array<{ answer: Answer; keepAlive: boolean; trailing: boolean }>;
  errors: string[];
  reader: ResponseReader;
}

function reader(keepHeadOf: (status: number) => boolean = (s) => s === 429): Read {
  const read: Read = { answers: [], errors: [], reader: undefined as unknown as ResponseReader };
  read.reader = new ResponseReader({ answer: (answer, keepAlive, trailing) => read.answers.push({ answer, keepAlive, trailing }), error: (code) => read.errors.push(code) }, keepHeadOf);
  return read;
}

/** Feeds the pieces as a socket with onread would: each copied into one reused buffer, which is scribbled over afterwards. */
function feed(read: Read, pieces: Buffer[]): void {
  const shared = Buffer.alloc(Math.max(...pieces.map((p) => p.length)));
  for (const piece of pieces) {
    piece.copy(shared);
    read.reader.feed(shared, piece.length);
    shared.fill(0x58, 0, piece.length);
  }
}

const CONTENT_LENGTH = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\nKeep-Alive: timeout=7\r\n\r\n{"id":"a-1"}\n';
const CHUNKED = 'HTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n5;ext=1\r\n{"id"\r\n8\r\n:"a-1"}\n\r\n0\r\nX-Trailer: yes\r\n\r\n';

function splits(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  const out: Buffer[][] = [[...bytes].map((b) => Buffer.from([b]))]; // byte by byte
  for (let cut = 1; cut < bytes.length; cut++) out.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
  return out;
}

test('Content-Length framing, in every split of the bytes; the body kept only when asked', () => {
  for (const pieces of splits(CONTENT_LENGTH)) {
    const read = reader();
    read.reader.expect('GET', true);
    feed(read, pieces);
    assert.deepEqual(read.errors, []);
    assert.equal(read.answers.length, 1);
    const [{ answer, keepAlive, trailing }] = read.answers;
    assert.equal(answer.status, 200);
    assert.equal(answer.body, '{"id":"a-1"}\n');
    assert.equal(answer.head, undefined, 'a 200 is not sampled: no head kept');
    assert.equal(keepAlive, true);
    assert.equal(trailing, false);
    assert.equal(read.reader.keepAliveHintSec, 7);
  }
  const read = reader();
  read.reader.expect('GET', false);
  feed(read, [Buffer.from(CONTENT_LENGTH)]);
  assert.equal(read.answers[0]!.answer.body, undefined);
});

test('chunked framing with extensions and trailers, in every split of the bytes', () => {
  for (const pieces of splits(CHUNKED)) {
    const read = reader();
    read.reader.expect('POST', true);
    feed(read, pieces);
    assert.deepEqual(read.errors, [], `split ${pieces.map((p) => p.length).join('+')}`);
    assert.equal(read.answers.length, 1);
    assert.equal(read.answers[0]!.answer.status, 201);
    assert.equal(read.answers[0]!.answer.body, '{"id":"a-1"}\n');
    assert.equal(read.answers[0]!.keepAlive, true);
  }
});

test('one connection, answers one after another: the reader is ready for the next after each', () => {
  const read = reader();
  for (const text of [CONTENT_LENGTH, CHUNKED, CONTENT_LENGTH]) {
    read.reader.expect('GET', false);
    feed(read, [Buffer.from(text)]);
  }
  assert.deepEqual(read.answers.map((a) => a.answer.status), [200, 201, 200]);
});

test('Connection: close, HTTP/1.0 and a body running until the close end the connection', () => {
  const close = reader();
  close.reader.expect('GET', false);
  feed(close, [Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok')]);
  assert.equal(close.answers[0]!.keepAlive, false);

  const old = reader();
  old.reader.expect('GET', false);
  feed(old, [Buffer.from('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok')]);
  assert.equal(old.answers[0]!.keepAlive, false);

  const untilClose = reader();
  untilClose.reader.expect('GET', true);
  feed(untilClose, [Buffer.from('HTTP/1.1 200 OK\r\n\r\nhello '), Buffer.from('world')]);
  assert.equal(untilClose.answers.length, 0, 'not complete before the close');
  assert.equal(untilClose.reader.close(), 'complete');
  assert.equal(untilClose.answers[0]!.answer.body, 'hello world');
  assert.equal(untilClose.answers[0]!.keepAlive, false);
});

test('a 429 keeps its head: Retry-After and the rate-limit fields are there to sample', () => {
  const read = reader();
  read.reader.expect('POST', false);
  feed(read, [
    Buffer.from('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 2\r\nRateLimit-Limit: 100\r\nRateLimit-Remaining: 0\r\nratelimit-reset: 2\r\nContent-Length: 0\r\n\r\n'),
  ]);
  const { answer } = read.answers[0]!;
  assert.equal(answer.status, 429);
  assert.deepEqual(headersOf(answer), { 'retry-after': '2', 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '2', 'content-length': '0' });
});

test('interim 1xx answers are skipped; HEAD, 204 and 304 answers have no body', () => {
  const read = reader();
  read.reader.expect('POST', false);
  feed(read, [Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')]);
  read.reader.expect('HEAD', false);
  feed(read, [Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n')]);
  read.reader.expect('GET', false);
  feed(read, [Buffer.from('HTTP/1.1 204 No Content\r\n\r\n')]);
  assert.deepEqual(read.answers.map((a) => [a.answer.status, a.keepAlive]), [[200, true], [200, true], [204, true]]);
  assert.deepEqual(read.errors, []);
});

test('malformed answers are errors with a code, never exceptions', () => {
  const cases: Array<[string, string]> = [
    ['garbage', MALFORMED],
    ['HTTP/1.1 2x0 OK\r\n\r\n', MALFORMED],
    ['HTTP/2 200 OK\r\n\r\n', MALFORMED],
    ['HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n', MALFORMED],
    ['HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', MALFORMED],
    ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', MALFORMED],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', MALFORMED],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXX', MALFORMED],
    ['HTTP/1.1 101 Switching Protocols\r\n\r\n', MALFORMED],
  ];
  for (const [text, code] of cases) {
    const read = reader();
    read.reader.expect('GET', false);
    assert.doesNotThrow(() => feed(read, [Buffer.from(text + '\r\n\r\n')]));
    assert.deepEqual(read.errors, [code], JSON.stringify(text));
    assert.equal(read.answers.length, 0);
  }
  const huge = reader();
  huge.reader.expect('GET', false);
  const head = Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70 * 1024)}`);
  feed(huge, Array.from({ length: Math.ceil(head.length / 4096) }, (_, i) => head.subarray(i * 4096, (i + 1) * 4096)));
  assert.deepEqual(huge.errors, [HEAD_TOO_LARGE]);
});

test('bytes nobody asked for end the connection: after an answer, or with no request waiting', () => {
  const trailing = reader();
  trailing.reader.expect('GET', false);
  feed(trailing, [Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA')]);
  assert.equal(trailing.answers[0]!.trailing, true);
  assert.equal(trailing.answers[0]!.keepAlive, false);

  const unsolicited = reader();
  feed(unsolicited, [Buffer.from('HTTP/1.1 200 OK\r\n\r\n')]);
  assert.deepEqual(unsolicited.errors, [MALFORMED]);
  const cut = reader();
  cut.reader.expect('GET', false);
  feed(cut, [Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc')]);
  assert.equal(cut.reader.close(), 'cut', 'a body shorter than its length was cut short');
});

test('request bytes: host added, a body framed by its length, what HTTP/1.1 cannot carry refused', () => {
  const get = requestBytes({ name: 'g', method: 'GET', pathAndQuery: '/users/1?x=1', headers: { accept: 'application/json' } }, '/base/users/1?x=1', '127.0.0.1:8080');
  assert.equal(get.toString('latin1'), 'GET /base/users/1?x=1 HTTP/1.1\r\nhost: 127.0.0.1:8080\r\naccept: application/json\r\n\r\n');
  const post = requestBytes({ name: 'p', method: 'POST', pathAndQuery: '/t', headers: { 'content-type': 'application/json' }, body: '{"n":"é"}' }, '/t', 'h:1');
  assert.equal(post.toString('utf8'), 'POST /t HTTP/1.1\r\nhost: h:1\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{"n":"é"}');
  const empty = requestBytes({ name: 'p', method: 'POST', pathAndQuery: '/t', headers: { host: 'other' } }, '/t', 'h:1');
  assert.equal(empty.toString('latin1'), 'POST /t HTTP/1.1\r\nhost: other\r\ncontent-length: 0\r\n\r\n');
  assert.throws(() => requestBytes({ name: 'x', method: 'GET', pathAndQuery: '/a b', headers: {} }, '/a b', 'h'), /invalid request target/);
  assert.throws(() => requestBytes({ name: 'x', method: 'GET', pathAndQuery: '/', headers: { authorization: 'Bearer a\r\nx: y' } }, '/', 'h'), /invalid header field/);
});
