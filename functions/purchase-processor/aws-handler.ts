import { marketplaceByProvider } from '../../shared/cloud/marketplace/azure-marketplace';
import { awsMarketplaceFromEnvironment } from '../../shared/runtime/aws-marketplace-environment';
import { azureMarketplaceFromEnvironment } from '../../shared/runtime/azure-marketplace-environment';
import { awsPurchaseProcessorContext } from '../../shared/runtime/purchase-processor';
import { createPurchaseProcessorHandler } from './purchase-processor-handler';

/**
 * The purchase processor of a deployment synthesized with `-c marketplace=aws`: it buys AWS lines
 * from AWS, and Azure lines through ARM when the deployment has the Azure application's
 * credentials (otherwise the aws adapter leaves them to an operator).
 */
export const handler = createPurchaseProcessorHandler(
  awsPurchaseProcessorContext((env, externalIdOf, ctx) => {
    const aws = awsMarketplaceFromEnvironment(env, externalIdOf);
    const azure = azureMarketplaceFromEnvironment(env, ctx);
    return azure ? marketplaceByProvider({ azure }, aws) : aws;
  }),
);
