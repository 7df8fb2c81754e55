import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { itemFailingCondition } from '../../../shared/store/conditional-writes';

function conditionFailure(item?: ConditionalCheckFailedException['Item']): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({
    message: 'The conditional request failed',
    $metadata: {},
    Item: item,
  });
}

describe('itemFailingCondition', () => {
  it('answers the item DynamoDB returned with the failure, without reading', async () => {
    // Prepare
    const error = conditionFailure({ PK: { S: 'ORG#1' }, version: { N: '3' } });
    let reads = 0;

    // Act
    const item = await itemFailingCondition(error, async () => {
      reads += 1;
      return null;
    });

    // Assess
    expect(item).toEqual({ PK: 'ORG#1', version: 3 });
    expect(reads).toBe(0);
  });

  it('reads the current item when the failure carries none (dynalite)', async () => {
    // Act
    const item = await itemFailingCondition(conditionFailure(), async () => ({ PK: 'ORG#2' }));

    // Assess
    expect(item).toEqual({ PK: 'ORG#2' });
  });

  it('rethrows any other error', async () => {
    // Prepare
    const error = new Error('network down');

    // Act
    const answer = itemFailingCondition(error, async () => null);

    // Assess
    await expect(answer).rejects.toBe(error);
  });
});
