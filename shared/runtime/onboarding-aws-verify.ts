import type { AwsVerifier } from '../app/ports';
import { awsSdkProbe } from '../cloud/verifiers/aws-sdk-probe';
import { runAwsChecks } from '../cloud/verifiers/aws-verification';
import { onboardingRepository, orgRepository } from '../store/store';
import { configuredRegion } from './aws';
import { awsFunctionContext, onFirstUse } from './function-context';

const repositories = awsFunctionContext({ onboarding: onboardingRepository, orgs: orgRepository });

/**
 * What the AWS verification function runs with (docs/onboarding.md): the checks through the AWS SDK
 * adapter (STS AssumeRole into the customer's onboarding role, then Data Exports, CUR, S3, Cost
 * Explorer and EC2's DryRun purchase), in the function's region (`AWS_REGION`). Built on the first
 * invocation; the local server and tests hand theirs (the simulated cloud) to the function's
 * factory.
 */
export const awsOnboardingAwsVerifyContext = onFirstUse(() => ({
  ...repositories(),
  verifier: awsVerifierFromEnvironment(process.env),
}));

export function awsVerifierFromEnvironment(env: NodeJS.ProcessEnv): AwsVerifier {
  const region = configuredRegion(env);
  if (!region) throw new Error('AWS_REGION is not set: the region of the verification calls');
  const probe = awsSdkProbe({ region });
  return { verifyAws: (request) => runAwsChecks(probe, request) };
}
