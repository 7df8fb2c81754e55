import { describe, expect, it } from 'vitest';
import { chartQuery } from '../../../shared/contract/chart';
import { lineItemsQuery, providerQuery, resourceMatchesQuery } from '../../../shared/contract/plan-queries';
import type { RawQuery } from '../../../shared/contract/query';
import { parseInput } from '../../../shared/contract/validation-errors';

const ids = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
];
const window = { start_date: '2024-05-01', end_date: '2024-05-31' };

function errorsOf(result: ReturnType<typeof parseInput>) {
  return result.success ? {} : result.errors;
}

describe('query coercion', () => {
  it('fills in the line-items defaults', () => {
    // Act
    const query = lineItemsQuery.parse({});

    // Assess
    expect(query).toEqual({ order_by: 'id', desc: false, page: 1, page_size: 20 });
  });

  it('fills in the resource-matches defaults: largest covered cost first', () => {
    // Act
    const query = resourceMatchesQuery.parse(window);

    // Assess
    expect(query).toEqual({
      ...window,
      order_by: 'covered_ondemand_cost',
      desc: true,
      page: 1,
      page_size: 20,
    });
  });

  it.each<[string, RawQuery, string[]]>([
    ['repeated keys', { resource_match_ids: [ids[0], ids[1]] as string[] }, [ids[0], ids[1]] as string[]],
    ['a comma list', { resource_match_ids: `${ids[0]},${ids[1]}` }, [ids[0], ids[1]] as string[]],
    ['both', { resource_match_ids: [`${ids[0]}, ${ids[1]}`, ids[2]] as string[] }, ids],
    ['one value', { resource_match_ids: ids[2] as string }, [ids[2]] as string[]],
    ['an empty value', { resource_match_ids: '' }, []],
  ])('reads a list from %s', (_name, raw, expected) => {
    // Act
    const query = lineItemsQuery.parse(raw);

    // Assess
    expect(query.resource_match_ids).toEqual(expected);
  });

  it('names the list position of an invalid entry', () => {
    // Act
    const result = parseInput(resourceMatchesQuery, { ...window, line_item_ids: `${ids[0]},nope` }, 'query');

    // Assess
    expect(Object.keys(errorsOf(result))).toEqual(['line_item_ids.1']);
  });

  it('reads true and false', () => {
    // Assess
    expect(lineItemsQuery.parse({ desc: 'true' }).desc).toBe(true);
    expect(resourceMatchesQuery.parse({ ...window, desc: 'false' }).desc).toBe(false);
  });

  it.each(['yes', 'TRUE', '1', ''])('rejects %j as a boolean', (value) => {
    // Act
    const result = parseInput(lineItemsQuery, { desc: value }, 'query');

    // Assess
    expect(Object.keys(errorsOf(result))).toEqual(['desc']);
  });

  it.each([
    ['0', false],
    ['1', true],
    ['100', true],
    ['101', false],
  ])('checks page_size %s against 1 to 100', (value, accepted) => {
    // Act
    const result = parseInput(lineItemsQuery, { page_size: value }, 'query');

    // Assess
    expect(result.success).toBe(accepted);
    if (!accepted) {
      expect(Object.keys(errorsOf(result))).toEqual(['page_size']);
    }
  });

  it('reads integers and rejects what is not one', () => {
    // Act
    const valid = lineItemsQuery.parse({ page: '3', page_size: '50' });
    const notInteger = parseInput(lineItemsQuery, { page: '2.5' }, 'query');
    const zero = parseInput(lineItemsQuery, { page: '0' }, 'query');

    // Assess
    expect(valid).toMatchObject({ page: 3, page_size: 50 });
    expect(errorsOf(notInteger)).toEqual({ page: ['must be an integer'] });
    expect(Object.keys(errorsOf(zero))).toEqual(['page']);
  });

  it('rejects a single-valued parameter given twice', () => {
    // Act
    const result = parseInput(lineItemsQuery, { page_size: ['10', '20'] }, 'query');

    // Assess
    expect(errorsOf(result)).toEqual({ page_size: ['must be given once, got 2 values'] });
  });

  it('reads the sort field, and `null` as no particular order', () => {
    // Assess
    expect(lineItemsQuery.parse({ order_by: 'offer.duration_seconds' }).order_by).toBe(
      'offer.duration_seconds',
    );
    expect(lineItemsQuery.parse({ order_by: 'null' }).order_by).toBeNull();
    expect(
      Object.keys(errorsOf(parseInput(lineItemsQuery, { order_by: 'unmatched_units' }, 'query'))),
    ).toEqual(['order_by']);
  });

  it('rejects unknown parameters', () => {
    // Act
    const result = parseInput(lineItemsQuery, { pagesize: '10' }, 'query');

    // Assess
    expect(errorsOf(result)).toEqual({ pagesize: ['is not an allowed field'] });
  });

  it('requires the provider of #5 and #6', () => {
    // Assess
    expect(errorsOf(parseInput(providerQuery, {}, 'query'))).toEqual({ provider: ['is required'] });
    expect(providerQuery.parse({ provider: 'gcp' })).toEqual({ provider: 'gcp' });
    expect(providerQuery.safeParse({ provider: 'kubernetes' }).success).toBe(false);
  });
});

describe('resource-matches window', () => {
  it('requires start_date and end_date', () => {
    // Act
    const result = parseInput(resourceMatchesQuery, { end_date: '2024-05-31' }, 'query');

    // Assess
    expect(errorsOf(result)).toEqual({ start_date: ['is required'] });
  });

  it('rejects impossible dates and an end before the start', () => {
    // Act
    const impossible = parseInput(resourceMatchesQuery, { ...window, start_date: '2023-02-29' }, 'query');
    const reversed = parseInput(
      resourceMatchesQuery,
      { start_date: '2024-05-31', end_date: '2024-05-01' },
      'query',
    );

    // Assess
    expect(Object.keys(errorsOf(impossible))).toEqual(['start_date']);
    expect(errorsOf(reversed)).toEqual({ end_date: ['must not be before start_date'] });
  });
});

describe('chart filter', () => {
  it('reads one criterion as a list of one', () => {
    // Act
    const query = chartQuery.parse({ filter: '{"field":"region","op":"eq","value":"us-east-1"}' });

    // Assess
    expect(query.filter).toEqual([{ field: 'region', op: 'eq', value: 'us-east-1' }]);
  });

  it('reads a list of criteria', () => {
    // Prepare
    const filter = [
      { field: 'region', op: 'in', value: ['us-east-1', 'eu-west-1'] },
      { field: 'contract_type', op: 'ne', value: 'leased_ris' },
    ];

    // Act
    const query = chartQuery.parse({ filter: JSON.stringify(filter), provider: 'aws' });

    // Assess
    expect(query).toEqual({ filter, provider: 'aws' });
  });

  it('rejects text that is not JSON', () => {
    // Act
    const result = parseInput(chartQuery, { filter: '{field:region}' }, 'query');

    // Assess
    expect(errorsOf(result)).toEqual({ filter: ['must be valid JSON'] });
  });

  it('names the invalid part of a criterion', () => {
    // Act
    const single = parseInput(chartQuery, { filter: '{"field":"region","op":"eq","value":["a"]}' }, 'query');
    const listed = parseInput(
      chartQuery,
      { filter: '[{"field":"colour","op":"eq","value":"red"}]' },
      'query',
    );
    const unknownOp = parseInput(
      chartQuery,
      { filter: '{"field":"region","op":"like","value":"us"}' },
      'query',
    );

    // Assess
    expect(Object.keys(errorsOf(single))).toEqual(['filter.value']);
    expect(Object.keys(errorsOf(listed))).toEqual(['filter.0.field']);
    expect(Object.keys(errorsOf(unknownOp))).toEqual(['filter.op']);
  });

  it('rejects an empty list of criteria and JSON of another shape', () => {
    // Assess
    expect(chartQuery.safeParse({ filter: '[]' }).success).toBe(false);
    expect(chartQuery.safeParse({ filter: '"region"' }).success).toBe(false);
  });
});
