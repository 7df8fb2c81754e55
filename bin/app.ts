import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';

const app = new App();
buildApp(app, {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
