import { alwaysOn, commitmentHeader, type FleetResource, fleet } from './usage-files';

/**
 * What the plan end-to-end tests (test/e2e/plan-*.test.ts) import into their customer org, and the
 * figures worked out by hand from it.
 */

/**
 * The lookback of every plan below: the 720 hours (30 days) of October 1 to 30, 2026, ending
 * with the last hour of the imported usage.
 */
export const lookbackStart = '2026-10-01T00:00:00Z';
export const lookbackDays = { start: '2026-10-01', end: '2026-10-30' };

/**
 * The known optimum (GCP, no fee, High Savings: no hazard). n2-standard-8 in us-central1 costs
 * p = 0.388472 an hour on demand; its 3-year commitment r = 0.174812 (r/p = 0.45), its 1-year one
 * r = 0.244736 (r/p = 0.63). Four instances always run and six more in 3 hours of every 5, so
 * the hourly count R is 10 in 60% of the hours and 4 in 40%: F(k), the share of hours with
 * R >= k, is 1 for k <= 4 and 0.6 for 5 <= k <= 10.
 *   3 years: unit k is worth buying iff F(k) > r/p = 0.45, so all 10 are bought. Per hour:
 *     covered on demand = p x mean(min(R, 10)) = 0.388472 x (0.6 x 10 + 0.4 x 4) = 0.388472 x 7.6
 *                       = 2.9523872; amortized = 10 x 0.174812 = 1.74812; savings = 1.2042672.
 *   1 year: F(5) = 0.6 < 0.63, so only 4, saving 4 x (0.388472 - 0.244736) = 0.574944 an hour.
 * The line item of greatest total value is the 3-year one, with 10 instances (averaging the
 * usage, 7.6, would buy 7).
 */
const gcpProject = {
  provider: 'gcp',
  accountId: 'acme-prod',
  service: 'Compute Engine',
  operatingSystem: 'Linux',
} as const;
export const knownOptimum = {
  instanceType: 'n2-standard-8',
  quantity: 10,
  term: 'three_year',
  coveredOndemandCost: 0.388472 * 7.6,
  amortizedCost: 10 * 0.174812,
  savings: 0.388472 * 7.6 - 10 * 0.174812,
};

export const plannedUsage: FleetResource[] = [
  ...fleet(4, 'gce-always', {
    ...gcpProject,
    region: 'us-central1',
    instanceType: 'n2-standard-8',
    unitsAt: alwaysOn,
  }),
  ...fleet(6, 'gce-burst', {
    ...gcpProject,
    region: 'us-central1',
    instanceType: 'n2-standard-8',
    unitsAt: (t) => (t % 5 < 3 ? 1 : 0),
  }),
  ...fleet(2, 'gce-api', {
    ...gcpProject,
    region: 'us-central1',
    instanceType: 'n2-standard-4',
    unitsAt: alwaysOn,
  }),
  ...fleet(3, 'gce-eu', {
    ...gcpProject,
    region: 'europe-west1',
    instanceType: 'n2-standard-2',
    unitsAt: alwaysOn,
  }),
  ...fleet(3, 'web', {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.large',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  }),
  ...fleet(2, 'web-peak', {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Linux',
    unitsAt: (t) => (t % 5 < 3 ? 1 : 0),
  }),
  ...fleet(2, 'win', {
    provider: 'aws',
    accountId: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    instanceType: 'm5.xlarge',
    operatingSystem: 'Windows',
    unitsAt: alwaysOn,
  }),
  ...fleet(4, 'batch', {
    provider: 'aws',
    accountId: '222222222222',
    region: 'us-west-2',
    service: 'AmazonEC2',
    instanceType: 'c5.large',
    operatingSystem: 'Linux',
    unitsAt: (t) => (t % 10 < 7 ? 1 : 0),
  }),
  // Steady usage well beyond what the owned savings plan covers, so that the plans have several
  // reservation lines to page, sort and filter (a new reservation takes only what it leaves).
  ...fleet(4, 'api', {
    provider: 'aws',
    accountId: '222222222222',
    region: 'us-west-2',
    service: 'AmazonEC2',
    instanceType: 'c5.xlarge',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  }),
  ...fleet(3, 'search', {
    provider: 'aws',
    accountId: '222222222222',
    region: 'eu-west-1',
    service: 'AmazonEC2',
    instanceType: 'r5.xlarge',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  }),
  ...fleet(1, 'cache', {
    provider: 'aws',
    accountId: '222222222222',
    region: 'eu-west-1',
    service: 'AmazonEC2',
    instanceType: 'r5.large',
    operatingSystem: 'Linux',
    unitsAt: alwaysOn,
  }),
];

/**
 * Two AWS commitments: two m5.large reserved for 2026 at 0.124 an hour (both instances, no
 * upfront), and a compute savings plan of $0.50 an hour for March 2026 to March 2027.
 */
export const plannedCommitments = [
  commitmentHeader,
  'aws,111111111111,us-east-1,standard_ris,m5.large,2,0,0,0.124,2026-01-01T00:00:00Z,2027-01-01T00:00:00Z,',
  'aws,111111111111,,compute_plans,,0,0.5,0,0.5,2026-03-01,2027-03-01,',
];
