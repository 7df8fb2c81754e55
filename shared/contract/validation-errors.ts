import * as z from 'zod/mini';

/**
 * Failed validations as the error body's `errors` map: field path -> messages. A path joins
 * names and list positions with dots (`users.0.email`); a query parameter is its name
 * (`page_size`). Issues about the input as a whole are filed under its location (`body`,
 * `query`, `path`).
 */
export type FieldErrors = Record<string, string[]>;

export type InputLocation = 'body' | 'query' | 'path';

export type InputParse<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly errors: FieldErrors };

/** Validates request input with the contract's messages (e.g. `is required`). */
export function parseInput<S extends z.core.$ZodType>(
  schema: S,
  input: unknown,
  location: InputLocation,
): InputParse<z.output<S>> {
  const result = z.safeParse(schema, input, { error: requestErrorMessage });
  return result.success
    ? { success: true, data: result.data }
    : { success: false, errors: validationErrors(result.error, location) };
}

/** A value that is missing fails its type (or its enum, or every union member): say what is wrong. */
const requestErrorMessage: z.core.$ZodErrorMap = (issue) =>
  issue.input === undefined && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code ?? '')
    ? 'is required'
    : undefined;

export function validationErrors(error: z.core.$ZodError, location: InputLocation): FieldErrors {
  const errors = new Map<string, string[]>();
  collect(error.issues, [], location, errors);
  // fromEntries defines own properties, so a field named `__proto__` stays a field.
  return Object.fromEntries(errors);
}

type Issue = z.core.$ZodIssue;

function collect(
  issues: readonly Issue[],
  prefix: readonly PropertyKey[],
  location: InputLocation,
  errors: Map<string, string[]>,
) {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add(errors, fieldPath([...path, key], location), 'is not an allowed field');
      }
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      collect(closestAlternative(issue.errors), path, location, errors);
    } else {
      add(errors, fieldPath(path, location), issue.message);
    }
  }
}

/**
 * When no alternative of a union fits, the errors of the one the input resembles most are the
 * useful ones: not one whose type does not fit at all (an object given where a list is
 * expected), then the one that knows the most of the input's fields (strict objects report the
 * others as unrecognized), then the one with the fewest problems; the first on a tie.
 */
function closestAlternative(alternatives: readonly (readonly Issue[])[]): readonly Issue[] {
  const ranked = alternatives.map((issues) => ({ issues, rank: mismatchRank(issues) }));
  return ranked.reduce((best, candidate) => (compareRanks(candidate.rank, best.rank) < 0 ? candidate : best))
    .issues;
}

function mismatchRank(issues: readonly Issue[]): readonly number[] {
  const atRoot = issues.filter((issue) => issue.path.length === 0);
  return [
    atRoot.some((issue) => issue.code === 'invalid_type') ? 1 : 0,
    atRoot.reduce((count, issue) => count + (issue.code === 'unrecognized_keys' ? issue.keys.length : 0), 0),
    issues.length,
  ];
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  const index = a.findIndex((value, position) => value !== b[position]);
  return index === -1 ? 0 : (a[index] as number) - (b[index] as number);
}

function fieldPath(path: readonly PropertyKey[], location: InputLocation): string {
  return path.length === 0 ? location : path.map(String).join('.');
}

function add(errors: Map<string, string[]>, field: string, message: string) {
  const messages = errors.get(field) ?? [];
  if (!messages.includes(message)) {
    messages.push(message);
  }
  errors.set(field, messages);
}
