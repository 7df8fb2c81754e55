import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { scheduleExpressionProblem } from '../schedule-expression';
import type { ServiceFunction } from './service-function';

export interface ScheduledInvocationProps {
  /** The function the schedule invokes (asynchronously, as EventBridge Scheduler does). */
  readonly target: ServiceFunction;
  /** A recurring EventBridge Scheduler expression (lib/schedule-expression.ts). */
  readonly expression: string;
  /** The context key the expression comes from, named when it is refused. */
  readonly setting: string;
  readonly description: string;
  /** What the role is for, e.g. `Invokes the usage sync fan-out on its schedule`. */
  readonly roleDescription: string;
  /** Times the scheduler tries again an invocation Lambda did not accept. */
  readonly retryAttempts: number;
  /** Where the scheduler puts an invocation it could not deliver. @default none */
  readonly deadLetterQueue?: IQueue;
}

export interface ScheduledInvocation {
  readonly schedule: CfnSchedule;
  /** The role the scheduler invokes the target as. */
  readonly role: Role;
}

/**
 * An EventBridge Scheduler schedule that invokes a service function, built in `scope` as
 * `ScheduleRole` and `Schedule`. The L1 schedule rather than the L2 target: the role may invoke the
 * unqualified function and nothing else (the L2 target would also grant its versions, `:*`), and
 * is assumed only by this account's schedules.
 */
export function scheduledInvocation(scope: Construct, props: ScheduledInvocationProps): ScheduledInvocation {
  const problem = scheduleExpressionProblem(props.expression);
  if (problem) throw new Error(`${props.setting}: ${problem}`);
  const role = new Role(scope, 'ScheduleRole', {
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
    description: props.roleDescription,
  });
  const { function: target } = props.target;
  role.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [target.functionArn] }),
  );
  if (props.deadLetterQueue) {
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [props.deadLetterQueue.queueArn] }),
    );
  }
  const schedule = new CfnSchedule(scope, 'Schedule', {
    description: props.description,
    scheduleExpression: props.expression,
    flexibleTimeWindow: { mode: 'OFF' },
    state: 'ENABLED',
    target: {
      arn: target.functionArn,
      roleArn: role.roleArn,
      retryPolicy: { maximumRetryAttempts: props.retryAttempts },
      ...(props.deadLetterQueue ? { deadLetterConfig: { arn: props.deadLetterQueue.queueArn } } : {}),
    },
  });
  return { schedule, role };
}
