import { type CommandInput, optional, UsageError } from './admin-command';

/** Comma-separated names, each one of `allowed` (`none`: an empty list). */
export function listOption<T extends string>(
  options: CommandInput['options'],
  name: string,
  allowed: readonly T[],
): T[] | undefined {
  const value = optional(options, name);
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '' && item !== 'none');
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0)
    throw new UsageError(`--${name}: unknown ${unknown.join(', ')}; one of ${allowed.join(', ')}`);
  return items as T[];
}
