import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';
import * as z from 'zod';
import type { OperationList } from '../../shared/contract/operation-contract';
import { ConflictError } from '../../shared/domain/errors';
import type { Principal } from '../../shared/domain/principal';
import { createGroupHandler } from '../../shared/http/group-handler';
import { type Implementations, noContent, withHeaders } from '../../shared/http/operation';
import { paginate, paginationHeaderName } from '../../shared/http/pagination';
import { jsonBodies } from '../../shared/http/request-bodies';
import { proxyEvent } from '../unit/http/proxy-event';

/**
 * A partner-orgs group as the group handler's tests build it (test/unit/http/group-handler-*):
 * five operations of the shapes the contract states (a JSON body, a paged query, no body, 204, an
 * unexpected failure), their implementations, and the events that call them.
 */

/** An API-key caller: every scope. */
export const admin: Principal = {
  kind: 'user',
  orgId: 'org-1',
  userId: 'user-1',
  role: 'admin',
  scopes: ['*'],
};

const partnerOrgPath = z.strictObject({ partner_org_id: z.string() });

/** A group's part of an operation list, as shared/contract/operations states them. */
export const contracts = {
  registerOrg: {
    method: 'POST',
    path: '/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    summary: 'Register an org',
    tag: 'Partners',
    public: false,
    scope: 'partner:write',
    pathParams: partnerOrgPath,
    body: z.strictObject({
      name: z.string().min(1),
      users: z.array(z.strictObject({ email: z.email(), role: z.enum(['admin', 'user']) })).default([]),
    }),
    responses: { 201: z.object({}) },
  },
  listOrgs: {
    method: 'GET',
    path: '/partners/{partner_org_id}/orgs',
    group: 'partner-orgs',
    summary: 'List orgs',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    pathParams: partnerOrgPath,
    query: z.strictObject({
      page: z.coerce.number().int().min(1).default(1),
      page_size: z.coerce.number().int().min(1).max(100).default(20),
      ids: z.union([z.string().transform((id) => [id]), z.array(z.string())]).optional(),
    }),
    responses: { 200: z.array(z.string()) },
  },
  applyPlan: {
    method: 'POST',
    path: '/orgs/{org_id}/apply',
    group: 'partner-orgs',
    summary: 'Apply',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    responses: { 200: z.object({}) },
  },
  deleteOrg: {
    method: 'DELETE',
    path: '/orgs/{org_id}',
    group: 'partner-orgs',
    summary: 'Delete',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    responses: { 204: null },
  },
  failUnexpectedly: {
    method: 'GET',
    path: '/orgs/{org_id}/broken',
    group: 'partner-orgs',
    summary: 'Fail',
    tag: 'Partners',
    public: false,
    scope: 'plans:read',
    responses: { 200: z.object({}) },
  },
} satisfies OperationList;

export const implementations: Implementations<typeof contracts> = {
  registerOrg: async ({ pathParams, body, principal, requestId, headers, logger }) => {
    logger.info('org registered', { partner_org_id: pathParams.partner_org_id });
    return {
      partner: pathParams.partner_org_id,
      name: body.name,
      users: body.users.length,
      caller: principal.orgId,
      requestId,
      idempotencyKey: headers['idempotency-key'] ?? null,
    };
  },
  listOrgs: async ({ query }) => {
    const page = paginate(query.ids ?? ['a', 'b', 'c'], { page: query.page, pageSize: query.page_size });
    return withHeaders(page.items, { [paginationHeaderName]: page.header });
  },
  applyPlan: async ({ pathParams }) => ({ applied: (pathParams as Record<string, string>).org_id }),
  deleteOrg: async ({ pathParams }) => {
    if ((pathParams as Record<string, string>).org_id === 'busy') {
      throw new ConflictError('The org has running purchases.');
    }
    return noContent();
  },
  failUnexpectedly: async () => {
    throw new Error('connection to db-secret-host refused');
  },
};

export function partnerOrgsHandler(logger = new Logger({ serviceName: 'test' })) {
  return createGroupHandler(contracts, implementations, { logger, bodies: jsonBodies });
}

export function registerEvent(
  body: string | null,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  return proxyEvent({
    httpMethod: 'POST',
    resource: '/partners/{partner_org_id}/orgs',
    pathParameters: { partner_org_id: 'partner-1' },
    headers,
    body,
    principal: admin,
  });
}

export function jsonOf(result: APIGatewayProxyResult): Record<string, unknown> {
  return JSON.parse(result.body) as Record<string, unknown>;
}

/**
 * The log lines written during each test of the calling `describe`: the Powertools logger writes
 * INFO lines to stdout and ERROR lines to stderr, both captured (and kept off the test output).
 */
export function capturedLogs() {
  let stdout: MockInstance<typeof process.stdout.write>;
  let stderr: MockInstance<typeof process.stderr.write>;
  beforeEach(() => {
    stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    stdout.mockRestore();
    stderr.mockRestore();
  });
  const output = (): string =>
    [...stdout.mock.calls, ...stderr.mock.calls].map(([chunk]) => String(chunk)).join('');
  return {
    output,
    lines: (): Record<string, unknown>[] =>
      output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
