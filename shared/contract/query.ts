import * as z from 'zod/mini';
import { calendarDate } from './formats';

/**
 * Query-parameter schemas. Values arrive from the HTTP layer as strings, a repeated key as an
 * array of strings (`RawQuery`); these schemas coerce them to typed values and reject what does
 * not fit, naming the parameter. Query objects are strict: a misspelt parameter is reported
 * rather than silently ignored.
 */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parameter that takes one value: a repeated key is an error, not a silent pick. */
export function singleValue<S extends z.ZodMiniType>(schema: S) {
  return z.pipe(
    z.transform((value: unknown, ctx) => {
      if (Array.isArray(value)) {
        ctx.issues.push({
          code: 'custom',
          message: `must be given once, got ${value.length} values`,
          input: value,
        });
        return z.NEVER;
      }
      return value;
    }),
    schema,
  );
}

/**
 * A text field given once, 1 to `max` characters: the OAuth forms' fields (form bodies arrive as
 * query strings do, a repeated field as an array).
 */
export function formText(max: number) {
  return singleValue(z.string().check(z.minLength(1), z.maxLength(max)));
}

const integerText = /^-?\d+$/;

/** A decimal integer, checked against `range` (e.g. `z.int().check(z.gte(1), z.lte(100))`). */
export function integerParam(range: z.ZodMiniType<number, number>) {
  return singleValue(
    z.pipe(z.pipe(z.string().check(z.regex(integerText, 'must be an integer')), z.transform(Number)), range),
  );
}

/** `true` or `false`, exactly. */
export function booleanParam() {
  return singleValue(z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'sensitive' }));
}

/** A `YYYY-MM-DD` calendar date. */
export function dateParam() {
  return singleValue(calendarDate);
}

/** A sort field, or the literal string `null` for no particular order (parsed to `null`). */
export function sortFieldParam<const V extends readonly [string, ...string[]]>(fields: V) {
  return singleValue(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((value: string) => (value === 'null' ? null : value)),
      ),
      z.nullable(z.enum(fields)),
    ),
  );
}

/** Most values one list parameter takes. */
export const maxListParamValues = 100;

/**
 * A list: repeated keys (`?ids=a&ids=b`), comma-separated values (`?ids=a,b`) or both. Blank
 * entries (`?ids=` or `a,,b`) are dropped.
 */
export function listParam<S extends z.ZodMiniType>(item: S) {
  return z.pipe(
    z.transform((value: unknown) => {
      if (typeof value !== 'string' && !Array.isArray(value)) {
        return value;
      }
      return [value]
        .flat()
        .flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]))
        .map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
        .filter((entry) => entry !== '');
    }),
    z.array(item).check(z.maxLength(maxListParamValues)),
  );
}

/** JSON-encoded parameters and the schema of their document. */
const jsonParamContents = new WeakMap<object, z.ZodMiniType>();

/**
 * The schema of the JSON document a `jsonParam` takes; the OpenAPI document describes such
 * parameters as `content: application/json` rather than as a plain string.
 */
export function jsonParamContent(param: z.core.$ZodType): z.ZodMiniType | undefined {
  return jsonParamContents.get(param);
}

/** A JSON-encoded value, parsed and then validated by `content`. */
export function jsonParam<S extends z.ZodMiniType>(content: S) {
  const param = singleValue(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((text: string, ctx) => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            ctx.issues.push({ code: 'custom', message: 'must be valid JSON', input: text });
            return z.NEVER;
          }
        }),
      ),
      content,
    ),
  );
  jsonParamContents.set(param, content);
  return param;
}
