/**
 * For the AWS SDK clients whose modeled errors a bundle keeps only in part: the errors the commands
 * the service sends through that client are modeled to throw (their `@throws` in the SDK's
 * documentation). test/infra/sdk-errors-thrown.test.ts derives the same list from the commands
 * `shared/` imports and fails when they differ.
 *
 * Only RDS is listed: its client registers every one of its service's error classes when it loads,
 * a large part of the aws purchase processor (figures: docs/benchmarks.md, Cold start), of which the
 * three commands of `shared/cloud/marketplace/aws-rds-reservations.ts` can throw four. The other
 * clients' error registries are small.
 */
export const sdkErrorsThrown: Readonly<Record<string, readonly string[]>> = {
  '@aws-sdk/client-rds': [
    'ReservedDBInstanceAlreadyExistsFault',
    'ReservedDBInstanceNotFoundFault',
    'ReservedDBInstanceQuotaExceededFault',
    'ReservedDBInstancesOfferingNotFoundFault',
  ],
};
