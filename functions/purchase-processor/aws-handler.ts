import { awsMarketplaceFromEnvironment } from '../../shared/runtime/aws-marketplace-environment';
import { awsPurchaseProcessorContext } from '../../shared/runtime/purchase-processor';
import { createPurchaseProcessorHandler } from './purchase-processor-handler';

/** The purchase processor of a deployment synthesized with `-c marketplace=aws`: it buys from AWS. */
export const handler = createPurchaseProcessorHandler(
  awsPurchaseProcessorContext(awsMarketplaceFromEnvironment),
);
