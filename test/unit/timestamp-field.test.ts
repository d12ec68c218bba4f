// The spec's three ISO 8601 timestamps (2.2 registered_at, 2.3 created_at,
// 2.4 time): each schema's format and each check's judgement read them alike
// (src/schemas/iso8601.ts), a FAIL message says why the value is not ISO 8601,
// and a documented timestamp that is null is a WARN, not a FAIL.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';
import { quoteFor, tradeFor } from '../../reference/trading/trade.ts';
import { judgeTimestamp, type TimestampField } from '../../src/check/timestamp-field.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { REGISTERED_AT } from '../../suites/users/support.ts';
import { CREATED_AT } from '../../suites/crypto-transfers/support.ts';

const TRADE_TIME: TimestampField = { name: 'time', clause: '2.4', rule: 'with UTC offset', schemaCheck: 'trading.accepted-trade-schema' };

const address = (createdAt: unknown) => ({
  data: {
    id: randomUUID(),
    host_type: 'KNOWN_VASP',
    host_name: 'Reference Custody',
    host_id: randomUUID(),
    address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
    destination_tag: '1234567890',
    destination_tag_type: 'DESTINATION_TAG',
    user_owned: false,
    owner_legal_name: 'Jane Doe',
    asset_id: randomUUID(),
    coin_network_id: randomUUID(),
    network_id: randomUUID(),
    created_at: createdAt,
  },
});

/** Each field: its schema, a body holding a value there, and the check's field. */
const FIELDS: Array<{ field: TimestampField; schema: string; body: (value: unknown) => unknown }> = [
  { field: REGISTERED_AT, schema: 'user-details.schema.json', body: (value) => ({ data: { ...seedUsers(REFERENCE_DEFAULTS.seed)[0]!, registered_at: value } }) },
  { field: CREATED_AT, schema: 'withdrawal-address-response.schema.json', body: address },
  { field: TRADE_TIME, schema: 'accepted-trade.schema.json', body: (value) => ({ data: { ...tradeFor(randomUUID(), quoteFor(1), '2026-11-27T10:00:00.000Z'), time: value } }) },
];

const VALUES = [
  '2026-11-27T10:00:00Z',
  '2026-11-27T10:00:00.123+00:00',
  '20261127T100000,123Z',
  '20261127T100000+0000',
  '2016-12-31T23:59:60Z',
  '2026-11-27T11:00:00+01:00',
  '20261127T110000.5+0100',
  '2026-11-27T11:00+01',
  '2026-11-27T10:00:00',
  '2026-11-27 10:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-11-27T10:00:00+0100',
  '2026-11-27',
];

describe('each schema and its check read the timestamp alike', () => {
  for (const { field, schema, body } of FIELDS) {
    test(`${field.clause} ${field.name} (${schema})`, () => {
      for (const value of VALUES) {
        const errors = validateAgainst(schema, body(value));
        const judged = judgeTimestamp(field, value);
        assert.equal(errors.length > 0, judged.verdict === 'FAIL', `${value}: ${describeSchemaErrors(errors)} / ${JSON.stringify(judged)}`);
        if (judged.verdict !== 'FAIL') continue;
        // The schema's message says what the check says: the value, the rule, and why.
        assert.equal(errors.length, 1, value);
        assert.ok(judged.message.endsWith(errors[0]!.message), `${judged.message} / ${errors[0]!.message}`);
      }
    });
  }

  test('the reasons name the rule broken', () => {
    assert.deepEqual(judgeTimestamp(CREATED_AT, '2026-11-27T12:00:00+02:00'), {
      verdict: 'FAIL',
      message: 'created_at "2026-11-27T12:00:00+02:00" is not an ISO 8601 timestamp in UTC: at UTC offset +02:00, not in UTC (Z or an offset of zero)',
    });
    assert.equal(judgeTimestamp(REGISTERED_AT, '2026-11-27T12:00:00+02:00').verdict, 'PASS');
    assert.match(describeSchemaErrors(validateAgainst('accepted-trade.schema.json', FIELDS[2]!.body('2026-13-01T00:00:00Z'))), /^\/data\/time "2026-13-01T00:00:00Z" is not an ISO 8601 timestamp with UTC offset: no such date \(month 13\)$/);
  });
});

describe('a timestamp that is not there', () => {
  for (const { field, schema, body } of FIELDS) {
    test(`${field.name} null: a WARN in the check and in the schema, never a FAIL`, () => {
      const judged = judgeTimestamp(field, null);
      assert.equal(judged.verdict, 'WARN');
      assert.match((judged as { message: string }).message, new RegExp(`^${field.name} is null where ${field.clause} documents it as an "ISO 8601 timestamp ${field.rule}"`));
      // expectSchema WARNs on errors of kind null and FAILs on the others (src/check/context.ts).
      const errors = validateAgainst(schema, body(null));
      assert.deepEqual(errors.map((e) => e.kind), ['null']);
      assert.equal(describeSchemaErrors(errors), `/data/${field.name} is null where the spec documents an ISO 8601 timestamp ${field.rule}`);
    });
  }

  test('left out: the schema check judges it; the timestamp check says it could not look', () => {
    assert.deepEqual(judgeTimestamp(CREATED_AT, undefined), {
      verdict: 'WARN',
      message: 'created_at is left out, so its format cannot be checked (crypto-transfers.create-address-schema judges the body)',
    });
  });

  test('another type is a FAIL', () => {
    assert.equal(judgeTimestamp(CREATED_AT, 1_764_237_600).verdict, 'FAIL');
    assert.match((judgeTimestamp(REGISTERED_AT, ['2026-11-27T10:00:00Z']) as { message: string }).message, /is an array/);
  });
});
