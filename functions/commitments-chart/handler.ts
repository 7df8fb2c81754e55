import { awsCommitmentsChartContext } from '../../shared/runtime/commitments-chart';
import { awsRequestThrottle } from '../../shared/runtime/request-throttle';
import { createCommitmentsChartHandler } from './commitments-chart-handler';

export const handler = createCommitmentsChartHandler(awsCommitmentsChartContext, awsRequestThrottle);
