import type { CloudVerifier } from '../../app/ports';
import { type AwsAccountProbe, runAwsChecks } from './aws-verification';
import { type AzureTenantProbe, runAzureChecks } from './azure-verification';

/** The `CloudVerifier` port over one probe per provider: the checks are the same on every cloud. */
export function probeVerifier(probes: {
  readonly aws: AwsAccountProbe;
  readonly azure: AzureTenantProbe;
}): CloudVerifier {
  return {
    verifyAws: (request) => runAwsChecks(probes.aws, request),
    verifyAzure: (request) => runAzureChecks(probes.azure, request),
  };
}
