/**
 * For the AWS SDK clients whose modeled errors a bundle keeps only in part: the errors the commands
 * the service sends through that client are modeled to throw (their `@throws` in the SDK's
 * documentation). test/infra/sdk-errors-thrown.test.ts derives the same list from the commands
 * `shared/` imports and fails when they differ.
 *
 * A client registers every one of its service's error classes when it loads, so each function that
 * sends one command carries them all: RDS's are a large part of the aws purchase processor, of
 * which the three commands of `shared/cloud/marketplace/aws-rds-reservations.ts` can throw four;
 * KMS's are most of its client in the token and JWKS functions, Lambda's in every function that
 * invokes the plan computation (figures: docs/benchmarks.md, Cold start). An empty list: the
 * service's code tells none of the client's errors apart, so none is registered. Not listed: DynamoDB
 * (the floor's own client; the conditional writes read its cancellation reasons) and the clients
 * whose commands can throw nearly every error they register (Savings Plans, API Gateway, BCM Data
 * Exports, EC2).
 */
export const sdkErrorsThrown: Readonly<Record<string, readonly string[]>> = {
  // None: the plan computation's invoke (shared/runtime/lambda-invoke.ts) is the one caller, and
  // any failure of it is the computation's failure, whatever the error (docs/purchases.md, Outdated
  // plans). An error still arrives with its wire code as its name and its fault and status, which
  // the SDK's retries read. test/infra/sdk-errors-thrown.test.ts checks that no code imports one.
  '@aws-sdk/client-lambda': [],
  '@aws-sdk/client-sqs': [
    'BatchEntryIdsNotDistinct',
    'BatchRequestTooLong',
    'EmptyBatchRequest',
    'InvalidAddress',
    'InvalidAttributeName',
    'InvalidBatchEntryId',
    'InvalidSecurity',
    'KmsAccessDenied',
    'KmsDisabled',
    'KmsInvalidKeyUsage',
    'KmsInvalidState',
    'KmsNotFound',
    'KmsOptInRequired',
    'KmsThrottled',
    'OverLimit',
    'QueueDoesNotExist',
    'RequestThrottled',
    'ResourceNotFoundException',
    'TooManyEntriesInBatchRequest',
    'UnsupportedOperation',
  ],
  '@aws-sdk/client-secrets-manager': [
    'DecryptionFailure',
    'InternalServiceError',
    'InvalidParameterException',
    'InvalidRequestException',
    'ResourceNotFoundException',
  ],
  '@aws-sdk/client-sesv2': [
    'AccountSuspendedException',
    'BadRequestException',
    'LimitExceededException',
    'MailFromDomainNotVerifiedException',
    'MessageRejected',
    'NotFoundException',
    'SendingPausedException',
    'TooManyRequestsException',
  ],
  '@aws-sdk/client-cost-explorer': [
    'BillExpirationException',
    'BillingViewHealthStatusException',
    'DataUnavailableException',
    'InvalidNextTokenException',
    'LimitExceededException',
    'RequestChangedException',
    'ResourceNotFoundException',
  ],
  '@aws-sdk/client-kms': [
    'DependencyTimeoutException',
    'DisabledException',
    'DryRunOperationException',
    'InvalidArnException',
    'InvalidGrantTokenException',
    'InvalidKeyUsageException',
    'KMSInternalException',
    'KMSInvalidStateException',
    'KeyUnavailableException',
    'NotFoundException',
    'UnsupportedOperationException',
  ],
  '@aws-sdk/client-rds': [
    'ReservedDBInstanceAlreadyExistsFault',
    'ReservedDBInstanceNotFoundFault',
    'ReservedDBInstanceQuotaExceededFault',
    'ReservedDBInstancesOfferingNotFoundFault',
  ],
};
