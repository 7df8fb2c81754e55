import { awsPlanServingContext } from '../../shared/runtime/plan-serving-context';
import { createPlansHandler } from './plans-handler';

export const handler = createPlansHandler(awsPlanServingContext);
