import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
