/** A module-level string constant, as the SDK's code generator writes them: `const _e = "error";`. */
const stringConstant = /^const (_\w+) = ("(?:[^"\\]|\\.)*");$/gm;

/**
 * An object key computed from one of those constants (`{ [_e]: "client" }`), where it can only be a
 * key: after `{` or `,`.
 */
const computedKey = /([{,]\s*)\[(_\w+)\]:/g;

/**
 * The module's text with every computed key that names one of its string constants written plainly.
 * esbuild treats `{ [_e]: x }` as code that may run (a computed key converts its value to a property
 * key), so it keeps every schema of a client that holds one: the whole of EC2's, SES's, API
 * Gateway's (figures: docs/benchmarks.md, Cold start). `{ "error": x }` is the same object and is pure.
 * Only keys naming a string constant of the same module are rewritten; anything else is left as it
 * is. Upstream: aws/aws-sdk-js-v3#7607 and evanw/esbuild#4373; drop this once the SDK writes plain keys.
 */
export function withPlainKeys(source: string): string {
  const constants = new Map<string, string>();
  for (const [, name, literal] of source.matchAll(stringConstant)) {
    if (name && literal) constants.set(name, literal);
  }
  return source.replace(computedKey, (whole, before: string, name: string) => {
    const literal = constants.get(name);
    return literal === undefined ? whole : `${before}${literal}:`;
  });
}
