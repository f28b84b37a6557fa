// Null and timespan elements of the dynamic values pack_array, bag_pack and make_list_with_nulls
// build (lib/query/sql/expressions.ts jsonOf, lib/query/catalog/functions-v3.ts): a null element is
// JSON null whatever its type (a null timespan was "", a null bool false), as the other types already
// were; a timespan is its [d.]hh:mm:ss text as make_list writes it, not its microseconds.
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRunner } from './geocell-queries';

describe('null and timespan elements of built dynamic values', () => {
  let run: (query: string) => Promise<unknown[][]>;
  beforeAll(async () => {
    run = await queryRunner();
  });
  const threeHours = 'range x from 1 to 3 step 1 | extend t = iff(x == 2, timespan(null), x * 1h)';

  it('writes a null timespan in pack_array and bag_pack as null, not ""', async () => {
    // Act
    const rows = await run('print p = pack_array(timespan(null), 1h), b = bag_pack("a", timespan(null))');
    // Assess
    expect(rows).toEqual([[[null, '01:00:00'], { a: null }]]);
  });

  it('writes a null bool in pack_array and make_list_with_nulls as null, not false', async () => {
    // Act
    const rows = await run(
      'range x from 1 to 2 step 1 | extend b = iff(x == 2, bool(null), true) | summarize p = make_list(pack_array(b)), l = make_list_with_nulls(b)',
    );
    // Assess
    expect(rows).toEqual([
      [
        [[true], [null]],
        [true, null],
      ],
    ]);
  });

  it('writes the timespans of make_list_with_nulls as make_list does, its nulls as null', async () => {
    // Act
    const rows = await run(`${threeHours} | summarize make_list_with_nulls(t), make_list(t)`);
    // Assess
    expect(rows).toEqual([
      [
        ['01:00:00', null, '03:00:00'],
        ['01:00:00', '03:00:00'],
      ],
    ]);
  });

  it('writes NaN in make_list_with_nulls as make_list does, as the string "NaN" (the list stays JSON)', async () => {
    // Act
    const rows = await run(
      'range x from 1 to 2 step 1 | extend r = iff(x == 2, real(null), real(nan)) | summarize make_list_with_nulls(r), make_list(r)',
    );
    // Assess
    expect(rows).toEqual([[['NaN', null], ['NaN']]]);
  });

  it('takes a non-null dynamic in take_any and take_anyif when one is present, as it takes a non-empty string', async () => {
    // Act: the JSON null element comes first, where the engine's any_value would take it.
    const rows = await run(
      'print d = dynamic([null, {"a":1}]) | mv-expand x = d | summarize a = take_any(x), b = take_anyif(x, isnotnull(d)), n = take_anyif(x, false)',
    );
    // Assess
    expect(rows).toEqual([[{ a: 1 }, { a: 1 }, null]]);
  });
});
