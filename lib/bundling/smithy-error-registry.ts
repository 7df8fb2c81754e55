/**
 * A registration of one of the service's modeled errors in an SDK schema module, as the code
 * generator writes them: `n0_registry.registerError(DBInstanceNotFoundFault$, DBInstanceNotFoundFault);`.
 * The client's base exception is registered in the synthetic registry (`_s_registry`) and never matches.
 */
const serviceErrorRegistration = /^n\d+_registry\.registerError\((\w+)\$, \1\);$/gm;

/**
 * The module's text registering only the listed errors. Registering an error is the only use the
 * module makes of its class and its schema, and the registration runs when the module loads, so
 * esbuild keeps every modeled error of a client (RDS has over a hundred) for any command of it. Without its registration an error still arrives as the client's base exception
 * with the wire's error code as its name and `$fault` from the HTTP status (client below 500);
 * the listed errors keep their class, name and traits.
 *
 * Throws when a listed error is not registered by the module, so a renamed or removed error stops
 * the build instead of silently losing its class.
 */
export function withRegisteredErrorsOnly(source: string, kept: ReadonlySet<string>): string {
  const registered = new Set<string>();
  const written = source.replace(serviceErrorRegistration, (whole, name: string) => {
    registered.add(name);
    return kept.has(name) ? whole : '';
  });
  const unknown = [...kept].filter((name) => !registered.has(name));
  if (unknown.length > 0) {
    throw new Error(`the SDK schema module registers no error named ${unknown.join(', ')}`);
  }
  return written;
}
