import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repositoryRoot } from './entry-point-process';

/**
 * The README's walk-through as a newcomer pastes it: the `sh` blocks of README.md under
 * "## Calling the API" (its subsections included), in order. The blocks before it install and
 * start; the ones after it run benchmarks or deploy.
 */
export async function readmeWalkthrough(): Promise<string[]> {
  const readme = await readFile(join(repositoryRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Calling the API\n');
  if (start < 0) throw new Error('README.md has no "## Calling the API" section');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/** Where the walk-through's output of block `index` begins (one line, printed between blocks). */
export const blockMarker = (index: number): string => `::readme block ${index}::`;

/**
 * One bash script of the blocks, each announced by its marker, so one shell keeps the variables
 * a block sets for the next, as a terminal does.
 */
export function walkthroughScript(blocks: readonly string[]): string {
  return blocks.map((block, index) => `echo '${blockMarker(index)}'\n${block}`).join('\n');
}

/** What the script printed, split by block. */
export function outputByBlock(stdout: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const from = stdout.indexOf(`${blockMarker(index)}\n`);
    if (from < 0) return '';
    const to = stdout.indexOf(blockMarker(index + 1));
    return stdout.slice(from + blockMarker(index).length + 1, to < 0 ? undefined : to);
  });
}
