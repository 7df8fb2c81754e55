import {
  catalogRepository,
  commitmentRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  usageRepository,
} from '../store/store';
import { awsFunctionContext } from './function-context';

/** The plan-coverage function on AWS: its repositories on the service's table, built on the first invocation. */
export const awsPlanCoverageContext = awsFunctionContext({
  orgs: orgRepository,
  usage: usageRepository,
  commitments: commitmentRepository,
  plans: planRepository,
  purchases: purchaseRepository,
  catalog: catalogRepository,
});
