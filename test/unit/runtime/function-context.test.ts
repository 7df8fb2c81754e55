import { describe, expect, it } from 'vitest';
import { residualArena } from '../../../shared/domain/engine/groups/residual-arena';
import { createFunctionContext } from '../../../shared/runtime/app-context';
import { createDocumentClient } from '../../../shared/store/dynamo-client';
import { orgRepository, planRepository } from '../../../shared/store/store';

// No request is sent: building repositories only wires them to the table.
const table = {
  client: createDocumentClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:9' }),
  tableName: 'table',
};

describe('createFunctionContext', () => {
  it('builds only the repositories the function names', () => {
    // Act
    const ctx = createFunctionContext(table, { orgs: orgRepository, plans: planRepository });

    // Assess
    expect(Object.keys(ctx.repos).sort()).toEqual(['orgs', 'plans']);
  });

  it('gives the engine memory only to a function that computes plans', () => {
    // Act
    const reading = createFunctionContext(table, { plans: planRepository });
    const computing = createFunctionContext(
      table,
      { plans: planRepository },
      { engineMemory: residualArena },
    );

    // Assess
    expect(reading.engineMemory).toBeUndefined();
    expect(computing.engineMemory).toBeDefined();
  });
});
