import { Match } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { catalogRefreshMemorySize } from '../../lib/catalog-refresh-settings';
import { usageSyncMemorySize } from '../../lib/usage-sync-settings';
import { synthesizeService } from './service-app';

describe('API stack options', () => {
  // Prepare: every option away from its default; synthesis also runs the cdk-nag checks.
  const webAclArn = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/commitment-planning/0a1b2c3d';
  const { api, stacks } = synthesizeService({
    env: { account: '123456789012', region: 'eu-west-1' },
    api: {
      stageName: 'v1',
      throttlingRateLimit: 10,
      throttlingBurstLimit: 20,
      tenantThrottle: { rateLimit: 2.5, burstLimit: 5 },
      tracing: true,
      memorySize: 1024,
      planMemorySize: 3008,
      logRetention: RetentionDays.THREE_MONTHS,
      logLevel: 'DEBUG',
      webAclArn,
    },
  });
  const functions = Object.values(api.findResources('AWS::Lambda::Function'));

  it('pins both stacks to the given account and region', () => {
    expect([stacks.stateful.region, stacks.api.region]).toEqual(['eu-west-1', 'eu-west-1']);
    expect([stacks.stateful.account, stacks.api.account]).toEqual(['123456789012', '123456789012']);
  });

  it('names the stage and throttles it as configured', () => {
    api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v1',
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 })],
    });
  });

  it("throttles each tenant's API key as configured", () => {
    api.hasResourceProperties('AWS::ApiGateway::UsagePlan', { Throttle: { RateLimit: 2.5, BurstLimit: 5 } });
  });

  it('traces the stage and every function with X-Ray', () => {
    api.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
    for (const { Properties } of functions) {
      expect(Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
  });

  it('sizes, levels and retains the functions’ logs as configured', () => {
    const idOf = (serviceFunction: { node: { defaultChild?: unknown } } | undefined) =>
      stacks.api.getLogicalId(serviceFunction?.node.defaultChild as CfnFunction);
    const planFunctionIds = new Set(
      [
        stacks.api.planComputation.function,
        stacks.api.groupFunctions.get('plan-coverage')?.function,
        stacks.api.groupFunctions.get('commitments-chart')?.function,
      ].map(idOf),
    );
    // The usage sync reads export files and the catalog refresh price lists: their memory is their
    // own (lib/usage-sync-settings.ts, lib/catalog-refresh-settings.ts).
    const ownMemory = new Map([
      [idOf(stacks.api.usageSync.sync.function), usageSyncMemorySize],
      [idOf(stacks.api.catalogRefresh.refresh.function), catalogRefreshMemorySize],
    ]);
    for (const [id, { Properties }] of Object.entries(api.findResources('AWS::Lambda::Function'))) {
      const memory = ownMemory.get(id) ?? (planFunctionIds.has(id) ? 3008 : 1024);
      expect(Properties.MemorySize).toBe(memory);
      expect(Properties.Environment.Variables.POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
      expect(Properties.LoggingConfig.ApplicationLogLevel).toBe('DEBUG');
    }
    const retentions = Object.values(api.findResources('AWS::Logs::LogGroup')).map(
      (logGroup) => logGroup.Properties.RetentionInDays,
    );
    expect(retentions).toEqual(Array(functions.length + 1).fill(90));
  });

  it('associates the given web ACL with the stage', () => {
    api.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      WebACLArn: webAclArn,
      ResourceArn: Match.objectLike({
        'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('/restapis/'), '/stages/'])],
      }),
    });
  });
});
