import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiDocument } from '../../../shared/contract/openapi';
import { operationIds, operations } from '../../../shared/contract/operations';

type Json = Record<string, unknown>;

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, unknown>>;
};

function documentedOperations() {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Every `$ref` in `value`. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

describe('OpenAPI document', () => {
  it('is what docs/openapi.json holds (run `npm run openapi` after changing the contract)', () => {
    // Prepare
    const committed = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');

    // Assess
    expect(committed).toBe(renderOpenApiDocument());
  });

  it('describes every operation of the registry once, at its method and path', () => {
    // Act
    const documented = documentedOperations().map(({ path, method, operation }) => [
      operation.operationId,
      `${method.toUpperCase()} ${path}`,
    ]);

    // Assess
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(operationIds.map((id) => [id, `${operations[id].method} ${operations[id].path}`])),
    );
    expect(documented).toHaveLength(operationIds.length);
  });

  it('resolves every reference within the document', () => {
    // Prepare
    const refs = refsIn(document);

    // Assess
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const [, section, name] = ref.match(/^#\/components\/(\w+)\/(\w+)$/) ?? [];
      expect(section && name ? document.components[section]?.[name] : undefined, ref).toBeDefined();
    }
    expect(JSON.stringify(document)).not.toContain('$defs');
  });

  it('lets anyone call the public and OAuth operations and asks the others for credentials', () => {
    for (const { operation } of documentedOperations()) {
      // Prepare
      const contract = operations[operation.operationId as keyof typeof operations];

      // Assess
      if (contract.public || ('oauth' in contract && contract.oauth)) {
        expect(operation.security, String(operation.operationId)).toEqual([]);
      } else {
        expect(operation.security, String(operation.operationId)).toBeUndefined();
        expect(operation.responses).toHaveProperty(['401']);
      }
    }
    expect(document.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      BearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
  });

  it('documents the error body for client errors', () => {
    // Prepare
    const purchase = document.paths['/v2/org/{org_id}/partners/purchase-plans-v2/{plan_id}/purchase']
      ?.post as {
      responses: Record<string, Json>;
    };

    // Assess
    expect(purchase.responses['422']).toEqual({ $ref: '#/components/responses/UnprocessableEntity' });
    expect(document.components.responses?.UnprocessableEntity).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
    expect(document.components.schemas?.Error).toMatchObject({
      required: ['code', 'status', 'message', 'errors'],
    });
  });

  it('describes query parameters with their names, defaults and requiredness', () => {
    // Prepare
    const matches = document.paths['/v1/org/{org_id}/commitment-plans/{plan_id}/resource-matches']?.get as {
      parameters: { name: string; in: string; required: boolean; schema?: Json }[];
    };
    const query = Object.fromEntries(
      matches.parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => [parameter.name, parameter]),
    );

    // Assess
    expect(Object.keys(query)).toEqual([
      'order_by',
      'desc',
      'start_date',
      'end_date',
      'line_item_ids',
      'page',
      'page_size',
    ]);
    expect(query.start_date).toMatchObject({ required: true, schema: { type: 'string', format: 'date' } });
    expect(query.desc).toMatchObject({ required: false, schema: { type: 'boolean', default: true } });
    expect(query.page_size).toMatchObject({
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(query.line_item_ids).toMatchObject({ schema: { type: 'array' } });
  });

  it('describes the chart filter as a JSON document', () => {
    // Prepare
    const chart = document.paths['/v1/org/{org_id}/commitments/chart']?.get as { parameters: Json[] };

    // Act
    const filter = chart.parameters.find((parameter) => parameter.name === 'filter');

    // Assess
    expect(filter).toMatchObject({ in: 'query', required: false, content: { 'application/json': {} } });
  });
});
