import type { AwsVerifier } from '../app/ports';
import { awsSdkProbe } from '../cloud/verifiers/aws-sdk-probe';
import { runAwsChecks } from '../cloud/verifiers/aws-verification';
import { configuredRegion } from './aws';
import { installable } from './installable';

/**
 * What the AWS verification function runs with (DESIGN §11): the checks through the AWS SDK
 * adapter (STS AssumeRole into the customer's onboarding role, then Data Exports, CUR, S3, Cost
 * Explorer and EC2's DryRun purchase), in the function's region (`AWS_REGION`). The local runtime
 * and tests install theirs (the simulated cloud) first.
 */
const verifier = installable(() => awsVerifierFromEnvironment(process.env));

export const installAwsVerifier = verifier.install;
export const awsVerifier = verifier.get;

export function awsVerifierFromEnvironment(env: NodeJS.ProcessEnv): AwsVerifier {
  const region = configuredRegion(env);
  if (!region) throw new Error('AWS_REGION is not set: the region of the verification calls');
  const probe = awsSdkProbe({ region });
  return { verifyAws: (request) => runAwsChecks(probe, request) };
}
