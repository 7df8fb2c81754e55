import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  CATALOG_REFRESH_KEPT_METRIC,
  METRICS_NAMESPACE,
} from '../../functions/catalog-refresh/refresh-metric';
import { LIVE_DEFAULT_REGIONS } from '../../shared/cloud/prices/price-list-files';
import {
  catalogRefreshMemorySize,
  catalogRefreshRegionsProblem,
  catalogRefreshRetryAttempts,
  catalogRefreshTimeout,
  defaultCatalogRefreshSchedule,
} from '../catalog-refresh-settings';
import { functionEntry } from '../project-paths';
import { tableItemAccess } from '../table-item-access';
import { deadLetterAlarm, deadLetterQueue } from './dead-letters';
import { scheduledInvocation } from './scheduled-invocation';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

export interface CatalogRefreshProps {
  /** When the refresh runs: a recurring EventBridge Scheduler expression. @default defaultCatalogRefreshSchedule */
  readonly schedule?: string;
  /** The regions it reads, AWS's and Azure's names. @default the bundled catalog's (LIVE_DEFAULT_REGIONS) */
  readonly regions?: readonly string[];
  /** The service table: the refresh writes the catalog there. */
  readonly table: ITable;
  /** Settings the function shares with the API's (environment holds `TABLE_NAME`). */
  readonly functionSettings: Omit<ServiceFunctionProps, 'entry' | 'description' | 'timeout'>;
}

/**
 * The deployed catalog refresh (docs/catalog.md, Deployed refresh): a schedule invokes the
 * `catalog-refresh` function, which reads the providers' public price lists and makes them the
 * current catalog unless they look wrong. An invocation the scheduler could not deliver, and a run
 * that failed after Lambda's retries, land in its dead-letter queue (an alarm watches it); a run
 * that kept the last good catalog sets a metric another alarm watches. Neither alarm has an
 * action: the operator subscribes one (docs/deploy.md).
 */
export class CatalogRefresh extends Construct {
  readonly refresh: ServiceFunction;
  readonly deadLetterQueue: Queue;
  readonly schedule: CfnSchedule;
  /** The role the scheduler invokes the function as. */
  readonly scheduleRole: Role;
  /** In alarm while a failed refresh (or an undelivered invocation) waits in the dead-letter queue. */
  readonly deadLetterAlarm: Alarm;
  /** In alarm from a refresh that kept the last good catalog until one that makes a new version current. */
  readonly keptLastGoodAlarm: Alarm;

  constructor(scope: Construct, id: string, props: CatalogRefreshProps) {
    super(scope, id);
    const { functionSettings } = props;
    const regions = props.regions ?? LIVE_DEFAULT_REGIONS;
    const regionsProblem = catalogRefreshRegionsProblem(regions);
    if (regionsProblem) throw new Error(`catalogRefreshRegions: ${regionsProblem}`);

    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue');
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "The dead-letter queue of the refresh's failed runs (Lambda's on-failure destination) and of its schedule's undelivered invocations: no queue redrives to it, which is what the rule looks for.",
    });
    this.refresh = new ServiceFunction(this, 'Refresh', {
      ...functionSettings,
      environment: { ...functionSettings.environment, CATALOG_REFRESH_REGIONS: regions.join(',') },
      memorySize: catalogRefreshMemorySize,
      entry: functionEntry('catalog-refresh'),
      description: "Refreshes the price catalog from the providers' public price lists",
      timeout: catalogRefreshTimeout,
    });
    for (const statement of tableItemAccess(props.table).catalogRefresh()) {
      this.refresh.role.addToPrincipalPolicy(statement);
    }
    // The destination records the error with the event, which a dead-letter queue would not.
    this.refresh.function.configureAsyncInvoke({
      retryAttempts: catalogRefreshRetryAttempts,
      onFailure: new SqsDestination(this.deadLetterQueue),
    });

    const scheduled = scheduledInvocation(this, {
      target: this.refresh,
      expression: props.schedule ?? defaultCatalogRefreshSchedule,
      setting: 'catalogRefreshSchedule',
      description: "Refreshes the price catalog from the providers' public price lists",
      roleDescription: 'Invokes the catalog refresh on its schedule',
      retryAttempts: 2,
      deadLetterQueue: this.deadLetterQueue,
    });
    this.schedule = scheduled.schedule;
    this.scheduleRole = scheduled.role;

    this.deadLetterAlarm = deadLetterAlarm(
      this,
      'DeadLetterAlarm',
      this.deadLetterQueue,
      "A catalog refresh failed after Lambda's retries, or its schedule could not invoke it: the message in the catalog refresh dead-letter queue holds the error; the last good catalog stays current (docs/catalog.md, Deployed refresh)",
    );
    // One point per run (1 kept, 0 refreshed), weekly by default: a missing point keeps the state,
    // so the alarm stays on until a refresh makes a new version current.
    this.keptLastGoodAlarm = new Alarm(this, 'KeptLastGoodAlarm', {
      alarmDescription:
        'A catalog refresh kept the last good catalog: its WARN log line "catalog refresh kept the last good catalog" lists the reasons (docs/catalog.md, Deployed refresh)',
      metric: new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: CATALOG_REFRESH_KEPT_METRIC,
        dimensionsMap: { service: functionSettings.serviceName },
        statistic: 'Maximum',
        period: Duration.days(1),
      }),
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      threshold: 0,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.IGNORE,
    });
  }
}
