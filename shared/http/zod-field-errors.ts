import type { z } from 'zod';

/** The part of a request a schema validates. */
export type RequestPart = 'path' | 'query' | 'body';

export const unknownFieldMessage = 'Unknown field.';

/**
 * Turns zod issues into the `errors` map of a 422 body. Field paths are dotted, array indexes
 * included (`users.0.email`). Body fields are named plainly; path and query parameters carry their
 * part as prefix (`path.org_id`, `query.page_size`); an issue with the whole part is named by the
 * part alone (`body`, `query`). Each unknown field of a strict schema is named on its own.
 */
export function fieldErrorsFromZod(
  error: { readonly issues: readonly z.core.$ZodIssue[] },
  part: RequestPart,
): Record<string, string[]> {
  // A Map, turned into an object at the end, keeps a field named `__proto__` an ordinary key.
  const fields = new Map<string, string[]>();
  const add = (path: readonly PropertyKey[], message: string) => {
    const name = fieldName(part, path);
    fields.set(name, [...(fields.get(name) ?? []), message]);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        add([...issue.path, key], unknownFieldMessage);
      }
    } else {
      add(issue.path, issue.message);
    }
  }
  return Object.fromEntries(fields);
}

function fieldName(part: RequestPart, path: readonly PropertyKey[]): string {
  const dotted = path.map((segment) => String(segment)).join('.');
  if (dotted === '') {
    return part;
  }
  return part === 'body' ? dotted : `${part}.${dotted}`;
}
