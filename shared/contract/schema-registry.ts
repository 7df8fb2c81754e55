import { en } from 'zod/locales';
import * as z from 'zod/mini';

/**
 * zod's English messages (`Too small: expected string to have >=1 characters`), which the 422
 * bodies carry. `zod/mini` loads no locale by itself (classic zod set this one on first use);
 * every contract schema is built through this module, so it is set before any is parsed.
 */
z.config(en());

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

/**
 * Registers the schema `build` returns as the named component `id`. Like every schema a contract
 * module exports, it is built on first use (`z.lazy`): a function's cold start builds none, and
 * its first request only those of the operation it serves (docs/architecture.md, Bundles and
 * cold start; test/unit/contract/deferred-schemas.test.ts holds every contract module to it).
 * Each module-level call is marked pure (`@__PURE__`), as each module-level `z.lazy` is: the
 * registration is only for the OpenAPI document, so a bundle drops the schemas its function's
 * operations never reach instead of building their wrappers at start
 * (test/unit/contract/pure-schemas.test.ts).
 */
export function named<S extends z.ZodMiniType>(
  id: string,
  build: () => S,
  description?: string,
): z.ZodMiniLazy<S> {
  const schema = z.lazy(build);
  contractSchemas.add(schema, description === undefined ? { id } : { id, description });
  return schema;
}

/**
 * A copy of `schema` documented with `description` (usually one field). A copy, because shared
 * schemas (an e-mail address, a uuid) mean different things in different fields.
 */
export function described<S extends z.ZodMiniType>(schema: S, description: string): S {
  const copy = schema.clone() as S;
  contractSchemas.add(copy, { description });
  return copy;
}
