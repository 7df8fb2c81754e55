import { describe, expect, it } from 'vitest';
import { openApiOperations } from '../../../shared/contract/operations/openapi';
import { createGroupHandler } from '../../../shared/http/group-handler';
import { jsonBodies } from '../../../shared/http/request-bodies';
import { contracts, implementations } from '../../support/partner-orgs-group';

describe('creating a group handler', () => {
  it('fails when an operation of the group has no implementation', () => {
    // Prepare: a cast gets past the types, as a hand-edited handler might.
    const incomplete = { registerOrg: implementations.registerOrg } as unknown as typeof implementations;

    // Act
    const create = () => createGroupHandler(contracts, incomplete, { bodies: jsonBodies });

    // Assess
    expect(create).toThrow(/No implementation of listOrgs \(GET \/partners\/\{partner_org_id\}\/orgs\)/);
  });
  it('fails when an operation reads a body and the group was given no body parsers', () => {
    // Act
    const create = () => createGroupHandler(contracts, implementations);

    // Assess
    expect(create).toThrow(
      /registerOrg \(POST\) reads a JSON body: createGroupHandler needs the bodies option/,
    );
  });

  it('needs no body parsers for a group of GET operations', () => {
    // Act
    const create = () =>
      createGroupHandler(openApiOperations, { getOpenApiDocument: async () => ({ openapi: '3.1.0' }) });

    // Assess
    expect(create).not.toThrow();
  });
});
