import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTable, type TestTable } from '../../support/dynalite';

describe('user repository', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await startTestTable();
  });

  afterAll(async () => {
    await table.close();
  });

  const uniqueEmail = () => `${randomUUID()}@example.com`;

  it('creates a user, storing the e-mail trimmed and lower-cased', async () => {
    // Prepare
    const email = uniqueEmail();

    // Act
    const ensured = await table.store.users.ensure({
      email: `  ${email.toUpperCase()} `,
      name: 'Ada',
      createdAt: '2025-01-01T00:00:00.000Z',
    });

    // Assess
    const expected = { email, name: 'Ada', createdAt: '2025-01-01T00:00:00.000Z' };
    expect(ensured).toEqual(expected);
    expect(await table.store.users.get(email)).toEqual(expected);
  });

  it('keeps the first user when ensured again and answers it', async () => {
    // Prepare
    const email = uniqueEmail();
    const first = { email, name: 'First', createdAt: '2025-01-01T00:00:00.000Z' };
    await table.store.users.ensure(first);

    // Act
    const again = await table.store.users.ensure({
      email: email.toUpperCase(),
      name: null,
      createdAt: '2025-06-01T00:00:00.000Z',
    });

    // Assess
    expect(again).toEqual(first);
    expect(await table.store.users.get(email)).toEqual(first);
  });

  it('finds a user by any spelling of its e-mail', async () => {
    // Prepare
    const email = uniqueEmail();
    await table.store.users.ensure({ email, name: null, createdAt: '2025-01-01T00:00:00.000Z' });

    // Act
    const found = await table.store.users.get(` ${email.toUpperCase()}`);

    // Assess
    expect(found).toEqual({ email, name: null, createdAt: '2025-01-01T00:00:00.000Z' });
  });

  it('answers null for an unknown e-mail', async () => {
    expect(await table.store.users.get(uniqueEmail())).toBeNull();
  });
});
