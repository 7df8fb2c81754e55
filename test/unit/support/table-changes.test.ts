import { describe, expect, it } from 'vitest';
import { tableChanges } from '../../support/table-changes';

/** The comparison the e2e refusals rest on ("the table is as it was"): it must miss no change. */
describe('tableChanges', () => {
  const plan = {
    PK: 'ORG#1',
    SK: 'PLAN#1',
    status: 'draft',
    lines: [{ id: 'a', quantity: 2 }],
    blob: new Uint8Array([0]),
  };
  const key = { PK: 'ORG#1', SK: 'KEY#1', scopes: new Set(['read', 'write']) };

  it('finds nothing in the same items, whatever the order of their attributes and set members', () => {
    const reordered = {
      blob: new Uint8Array([0]),
      lines: [{ quantity: 2, id: 'a' }],
      status: 'draft',
      SK: 'PLAN#1',
      PK: 'ORG#1',
    };
    expect(tableChanges([plan, key], [reordered, { ...key, scopes: new Set(['write', 'read']) }])).toEqual(
      [],
    );
  });

  it.each([
    [
      'a value deep inside changes',
      [{ ...plan, lines: [{ id: 'a', quantity: 3 }] }, key],
      ['changed ORG#1 PLAN#1'],
    ],
    ['a set loses a member', [plan, { ...key, scopes: new Set(['read']) }], ['changed ORG#1 KEY#1']],
    ['binary contents change', [{ ...plan, blob: new Uint8Array([1]) }, key], ['changed ORG#1 PLAN#1']],
    ['an item is added', [plan, key, { PK: 'ORG#1', SK: 'PLAN#2' }], ['added ORG#1 PLAN#2']],
    ['an item is removed', [plan], ['removed ORG#1 KEY#1']],
  ])('names the item when %s', (_change, after, changes) => {
    expect(tableChanges([plan, key], after)).toEqual(changes);
  });
});
