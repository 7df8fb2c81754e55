/**
 * A dependency of the Lambda functions that the local runtime and tests replace: `get` answers
 * what `install` was given, else builds it from the environment on first use and keeps it for
 * the container.
 */
export interface Installable<T> {
  readonly install: (value: T) => void;
  readonly get: () => T;
}

export function installable<T>(fromEnvironment: () => T): Installable<T> {
  let installed: T | undefined;
  return {
    install: (value) => {
      installed = value;
    },
    get: () => {
      installed ??= fromEnvironment();
      return installed;
    },
  };
}
