import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrorsFromZod } from '../../../shared/http/zod-field-errors';

function errorsOf(schema: z.ZodType, value: unknown, part: 'path' | 'query' | 'body') {
  const result = schema.safeParse(value);
  if (result.success) {
    throw new Error('expected the value to fail the schema');
  }
  return fieldErrorsFromZod(result.error, part);
}

describe('zod field errors', () => {
  const body = z.strictObject({
    name: z.string(),
    users: z.array(z.strictObject({ email: z.email() })),
  });

  it('names body fields by their plain dotted path, array indexes included', () => {
    // Act
    const errors = errorsOf(
      body,
      { name: 'Acme', users: [{ email: 'a@b.test' }, { email: 'nope' }] },
      'body',
    );

    // Assess
    expect(errors).toEqual({ 'users.1.email': ['Invalid email address'] });
  });

  it('names each unknown field of a strict schema on its own', () => {
    // Act
    const errors = errorsOf(body, { name: 'Acme', users: [], role: 'admin', id: 'x' }, 'body');

    // Assess
    expect(errors).toEqual({ role: ['Unknown field.'], id: ['Unknown field.'] });
  });

  it('names a failure of the whole body "body"', () => {
    // Act
    const errors = errorsOf(body, [], 'body');

    // Assess
    expect(Object.keys(errors)).toEqual(['body']);
  });

  it('prefixes query and path parameters with their part', () => {
    // Prepare
    const query = z.strictObject({ page_size: z.coerce.number().int().max(100) });
    const path = z.strictObject({ org_id: z.uuid() });

    // Act
    const queryErrors = errorsOf(query, { page_size: '500' }, 'query');
    const pathErrors = errorsOf(path, { org_id: 'nope' }, 'path');

    // Assess
    expect(Object.keys(queryErrors)).toEqual(['query.page_size']);
    expect(Object.keys(pathErrors)).toEqual(['path.org_id']);
  });

  it('collects several messages for one field', () => {
    // Prepare
    const schema = z.strictObject({
      code: z
        .string()
        .min(3)
        .regex(/^[a-z]+$/),
    });

    // Act
    const errors = errorsOf(schema, { code: '1' }, 'body');

    // Assess
    expect(errors.code).toHaveLength(2);
  });
});
