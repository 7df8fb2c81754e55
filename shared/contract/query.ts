import * as z from 'zod';
import { calendarDate } from './formats';

/**
 * Query-parameter schemas. Values arrive from the HTTP layer as strings, a repeated key as an
 * array of strings (`RawQuery`); these schemas coerce them to typed values and reject what does
 * not fit, naming the parameter. Query objects are strict: a misspelt parameter is reported
 * rather than silently ignored.
 */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parameter that takes one value: a repeated key is an error, not a silent pick. */
export function singleValue<S extends z.ZodType>(schema: S) {
  return z.preprocess((value, ctx) => {
    if (Array.isArray(value)) {
      ctx.issues.push({
        code: 'custom',
        message: `must be given once, got ${value.length} values`,
        input: value,
      });
      return z.NEVER;
    }
    return value;
  }, schema);
}

const integerText = /^-?\d+$/;

/** A decimal integer, checked against `range` (e.g. `z.int().min(1).max(100)`). */
export function integerParam(range: z.ZodNumber) {
  return singleValue(z.string().regex(integerText, 'must be an integer').transform(Number).pipe(range));
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
    z
      .string()
      .transform((value) => (value === 'null' ? null : value))
      .pipe(z.enum(fields).nullable()),
  );
}

/** Most values one list parameter takes. */
export const maxListParamValues = 100;

/**
 * A list: repeated keys (`?ids=a&ids=b`), comma-separated values (`?ids=a,b`) or both. Blank
 * entries (`?ids=` or `a,,b`) are dropped.
 */
export function listParam<S extends z.ZodType>(item: S) {
  return z.preprocess((value) => {
    if (typeof value !== 'string' && !Array.isArray(value)) {
      return value;
    }
    return [value]
      .flat()
      .flatMap((entry) => (typeof entry === 'string' ? entry.split(',') : [entry]))
      .map((entry) => (typeof entry === 'string' ? entry.trim() : entry))
      .filter((entry) => entry !== '');
  }, z.array(item).max(maxListParamValues));
}

/** JSON-encoded parameters and the schema of their document. */
const jsonParamContents = new WeakMap<object, z.ZodType>();

/**
 * The schema of the JSON document a `jsonParam` takes; the OpenAPI document describes such
 * parameters as `content: application/json` rather than as a plain string.
 */
export function jsonParamContent(param: z.ZodType): z.ZodType | undefined {
  return jsonParamContents.get(param);
}

/** A JSON-encoded value, parsed and then validated by `content`. */
export function jsonParam<S extends z.ZodType>(content: S) {
  const param = singleValue(
    z
      .string()
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.issues.push({ code: 'custom', message: 'must be valid JSON', input: text });
          return z.NEVER;
        }
      })
      .pipe(content),
  );
  jsonParamContents.set(param, content);
  return param;
}
