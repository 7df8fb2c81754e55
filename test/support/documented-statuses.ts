import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repositoryRoot } from './entry-point-process';

/** One answer the API gave during a test file. */
export interface Answer {
  readonly method: string;
  /** The request's path, without the query. */
  readonly path: string;
  readonly status: number;
}

/**
 * The answers whose status the published OpenAPI document (`docs/openapi.json`) does not list for
 * their operation. Answers to unknown routes or methods have no operation and are left out.
 */
export async function undocumentedAnswers(answers: readonly Answer[]): Promise<Answer[]> {
  const published = JSON.parse(await readFile(join(repositoryRoot, 'docs/openapi.json'), 'utf8'));
  const operations = Object.entries(
    published.paths as Record<string, Record<string, { responses: object }>>,
  ).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      statuses: Object.keys(operation.responses),
    })),
  );
  return answers.filter(({ method, path, status }) => {
    const operation = operations.find(
      (candidate) => candidate.method === method && candidate.path.test(path),
    );
    return operation !== undefined && !operation.statuses.includes(String(status));
  });
}

/**
 * A test file's last test: every status its requests were answered (`answered`, filled by the
 * file's requests) is documented for its operation in docs/openapi.json. Declared last in the file,
 * it runs after every other test; `atLeast` keeps it from passing on an empty list.
 */
export function itDocumentsEveryStatusAnswered(answered: readonly Answer[], atLeast: number): void {
  it('documents every status the operations answered in this file', async () => {
    // Act
    const undocumented = await undocumentedAnswers(answered);

    // Assess
    expect(answered.length, 'the answers of the tests before this one').toBeGreaterThanOrEqual(atLeast);
    expect(undocumented).toEqual([]);
  });
}
