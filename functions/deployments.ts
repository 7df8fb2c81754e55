import type { FunctionGroup } from '../shared/contract/operation-contract';
import { deployment as commitmentsChart } from './commitments-chart/deployment';
import type { GroupDeployment } from './group-deployment';
import { deployment as jwks } from './jwks/deployment';
import { deployment as oauthRegistration } from './oauth-registration/deployment';
import { deployment as oauthSignIn } from './oauth-sign-in/deployment';
import { deployment as oauthToken } from './oauth-token/deployment';
import { deployment as onboarding } from './onboarding/deployment';
import { deployment as onboardingAwsVerify } from './onboarding-aws-verify/deployment';
import { deployment as onboardingAzureConsent } from './onboarding-azure-consent/deployment';
import { deployment as onboardingAzureVerify } from './onboarding-azure-verify/deployment';
import { deployment as openapi } from './openapi/deployment';
import { deployment as partnerOrgs } from './partner-orgs/deployment';
import { deployment as partnerPurchasePlans } from './partner-purchase-plans/deployment';
import { deployment as partnerSettings } from './partner-settings/deployment';
import { deployment as planCoverage } from './plan-coverage/deployment';
import { deployment as planPurchases } from './plan-purchases/deployment';
import { deployment as plans } from './plans/deployment';

/**
 * Each routed group's deployment (its `deployment.ts`), for the CDK API stack: a group of the route
 * manifest without one does not compile.
 */
export const groupDeployments: Readonly<Record<FunctionGroup, GroupDeployment>> = {
  'oauth-sign-in': oauthSignIn,
  'oauth-token': oauthToken,
  'oauth-registration': oauthRegistration,
  jwks,
  openapi,
  plans,
  'plan-coverage': planCoverage,
  'commitments-chart': commitmentsChart,
  'plan-purchases': planPurchases,
  'partner-settings': partnerSettings,
  'partner-purchase-plans': partnerPurchasePlans,
  'partner-orgs': partnerOrgs,
  onboarding,
  'onboarding-azure-consent': onboardingAzureConsent,
  'onboarding-aws-verify': onboardingAwsVerify,
  'onboarding-azure-verify': onboardingAzureVerify,
};
