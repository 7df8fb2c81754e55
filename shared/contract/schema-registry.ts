import * as z from 'zod';

/**
 * The registry the OpenAPI document is generated from. A schema registered with an `id` becomes
 * `#/components/schemas/<id>` and is referenced wherever it is used; a `description` documents
 * the schema or field it is attached to.
 */
export interface ContractSchemaMeta {
  readonly id?: string;
  readonly description?: string;
}

export const contractSchemas = z.registry<ContractSchemaMeta>();

/** Registers `schema` as the named component `id`. */
export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  contractSchemas.add(schema as z.ZodType, description === undefined ? { id } : { id, description });
  return schema;
}

/**
 * A copy of `schema` documented with `description` (usually one field). A copy, because shared
 * schemas (an e-mail address, a uuid) mean different things in different fields.
 */
export function described<S extends z.ZodType>(schema: S, description: string): S {
  const copy = schema.clone() as S;
  contractSchemas.add(copy as z.ZodType, { description });
  return copy;
}
