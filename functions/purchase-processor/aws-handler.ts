import { awsMarketplaceFromEnvironment } from '../../shared/runtime/aws-marketplace-environment';
import { purchaseProcessorHandler } from './processor';

/** The purchase processor of a deployment synthesized with `-c marketplace=aws`: it buys from AWS. */
export const handler = purchaseProcessorHandler(awsMarketplaceFromEnvironment);
