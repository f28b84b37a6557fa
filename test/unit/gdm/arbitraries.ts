// fast-check arbitraries of valid GDM base messages, built from the spec's rules (not from the
// library's patterns), so the property tests check the library against an independent reading.
import fc from 'fast-check';

const kinds = ['state', 'alarm', 'event', 'keep-alive'] as const;

export const deviceIdArb = fc.stringMatching(/^[A-Za-z0-9_.#=-]{1,16}$/);
export const uuidArb = fc.uuid().map((u) => u.toLowerCase());
const segmentArb = fc.stringMatching(/^[A-Za-z0-9_.=/-]{1,8}$/);
export const messageTypeArb = fc
  .tuple(fc.constantFrom(...kinds), fc.array(segmentArb, { maxLength: 3 }))
  .map(([kind, segments]) => [kind, ...segments].join(':'));
export const messageVersionArb = fc
  .tuple(fc.nat(99), fc.nat(99), fc.option(fc.nat(99), { nil: undefined }))
  .map(([a, b, c]) => (c === undefined ? `${a}.${b}` : `${a}.${b}.${c}`));

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** ISO 8601 with offset from a real calendar date, 0-6 fraction digits, Z or ±hh:mm. */
export const dateTimeArb = fc
  .tuple(
    fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }),
    fc.stringMatching(/^[0-9]{0,6}$/),
    fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
    ),
  )
  .map(
    ([d, fraction, offset]) =>
      `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
      `${fraction === '' ? '' : `.${fraction}`}${offset}`,
  );

export const valueArb = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
);

export const metadataArb = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });

/** Base value items: `value` may be missing (default 0) at base. */
export const baseValueItemArb = fc.record(
  { value: valueArb, deviceTimestamp: fc.option(dateTimeArb, { nil: null }) },
  { requiredKeys: [] },
);

export const baseDataItemArb = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 12 }),
    metadata: metadataArb,
    values: fc.array(baseValueItemArb, { maxLength: 4 }),
  },
  { requiredKeys: ['name', 'values'] },
);

export const baseMessageArb = fc.record(
  {
    deviceId: deviceIdArb,
    messageId: uuidArb,
    messageType: messageTypeArb,
    messageVersion: messageVersionArb,
    metadata: metadataArb,
    data: fc.array(baseDataItemArb, { maxLength: 4 }),
  },
  { requiredKeys: ['messageId'] },
);

/** Base messages with at least one data item holding at least one value item (for mutations). */
export const richBaseMessageArb = fc.record({
  deviceId: deviceIdArb,
  messageId: uuidArb,
  messageType: messageTypeArb,
  messageVersion: messageVersionArb,
  data: fc.array(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 12 }),
      values: fc.array(fc.record({ value: valueArb, deviceTimestamp: dateTimeArb }), { minLength: 1, maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
});
