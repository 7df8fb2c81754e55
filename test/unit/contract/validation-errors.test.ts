import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseInput, validationErrors } from '../../../shared/contract/validation-errors';

describe('validation errors', () => {
  it('join nested names and list positions with dots', () => {
    // Prepare
    const schema = z.strictObject({ users: z.array(z.strictObject({ email: z.email() })) });

    // Act
    const result = schema.safeParse({ users: [{ email: 'ann@example.com' }, { email: 'nope' }] });

    // Assess
    expect(validationErrors(result.error as z.ZodError, 'body')).toEqual({
      'users.1.email': ['Invalid email address'],
    });
  });

  it('keep a field named __proto__ as a field', () => {
    // Act
    const result = parseInput(z.strictObject({}), JSON.parse('{"__proto__": {"polluted": true}}'), 'body');

    // Assess
    expect(result.success).toBe(false);
    const errors = result.success ? {} : result.errors;
    expect(Object.keys(errors)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
  });

  it('report the alternative of a union whose type fits', () => {
    // Prepare
    const item = z.strictObject({ id: z.int() });
    const schema = z.strictObject({ items: z.union([item, z.array(item)]) });

    // Act
    const single = parseInput(schema, { items: { id: 'x' } }, 'body');
    const listed = parseInput(schema, { items: [{ id: 'x' }] }, 'body');

    // Assess
    expect(Object.keys(single.success ? {} : single.errors)).toEqual(['items.id']);
    expect(Object.keys(listed.success ? {} : listed.errors)).toEqual(['items.0.id']);
  });

  it('file each message once per field', () => {
    // Prepare
    const schema = z.strictObject({
      name: z
        .string()
        .min(3, 'too short')
        .refine((name) => name !== 'ab', 'too short'),
    });

    // Act
    const result = parseInput(schema, { name: 'ab' }, 'body');

    // Assess
    expect(result).toEqual({ success: false, errors: { name: ['too short'] } });
  });
});
