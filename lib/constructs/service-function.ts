import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { AssetHashType, DockerImage, Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { projectRoot } from '../project-paths';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface ServiceFunctionProps {
  /** Absolute path of the TypeScript entry file; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  /** Powertools service name, shared by every function of the service. */
  readonly serviceName: string;
  /** Variables the function's runtime composition root reads (e.g. `TABLE_NAME`). */
  readonly environment: Readonly<Record<string, string>>;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default Duration.seconds(10) */
  readonly timeout?: Duration;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** Level for Powertools and for Lambda's own application-log filter. @default 'INFO' */
  readonly logLevel?: LogLevel;
  /** X-Ray active tracing. @default false */
  readonly tracing?: boolean;
}

const applicationLogLevels: Record<LogLevel, ApplicationLogLevel> = {
  DEBUG: ApplicationLogLevel.DEBUG,
  INFO: ApplicationLogLevel.INFO,
  WARN: ApplicationLogLevel.WARN,
  ERROR: ApplicationLogLevel.ERROR,
};

/**
 * One Lambda function of the service with the settings every function shares: arm64 on the
 * newest Node runtime, an ESM bundle with the AWS SDK v3 inside it (no reliance on the runtime's
 * copy, faster cold starts), source maps, its own log group with a retention, and a role that may
 * write to that log group only. Callers grant data access on `role` / `function`.
 *
 * The bundle is esbuild's, with the options and the plugin of lib/bundling/bundle-function.ts:
 * NodejsFunction runs the esbuild command line, which takes no plugins, and the plugin that lets
 * esbuild drop the SDK schemas a function does not use matters most in the functions that use
 * SES, API Gateway or EC2 (docs/deploy.md, Bundling; figures: docs/benchmarks.md, Cold start).
 */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logLevel = props.logLevel ?? 'INFO';

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });

    // An explicit role instead of the default AWSLambdaBasicExecutionRole: that managed policy may
    // create and write any log group in the account; this one writes to its own group only.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new LambdaFunction(this, 'Function', {
      code: bundledCode(props.entry),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      // Lambda filters application logs by this level; Powertools gets the same level so the two
      // filters never disagree.
      applicationLogLevelV2: applicationLogLevels[logLevel],
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      environment: {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_LOG_LEVEL: logLevel,
        NODE_OPTIONS: '--enable-source-maps',
      },
    });

    if (props.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so their resource is "*".',
      });
    }
  }

  /**
   * Lets the function send to `queue`: its URL as the environment variable `variable`, and
   * sqs:SendMessage (which SendMessageBatch needs too) on that queue, nothing else.
   */
  allowSendingTo(queue: IQueue, variable: string): void {
    this.function.addEnvironment(variable, queue.queueUrl);
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
  }
}

/** The bundling script, run by Node with tsx (both from the project's own dependencies). */
const bundlerMain = join(projectRoot, 'lib/bundling/bundle-function-main.ts');

/**
 * The function's code: `entry` bundled on this machine when the stack is synthesized with bundling
 * (as NodejsFunction does, the asset is hashed by its output). Without esbuild here there is no
 * Docker fallback: the placeholder image only satisfies the asset API, and synthesis fails.
 */
function bundledCode(entry: string): Code {
  const command = [process.execPath, '--import', 'tsx', bundlerMain, entry];
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('no-docker-bundling'),
      // Never run in a container; the CDK keys its bundling cache on these options, and the
      // command names the entry, so two functions never share a bundle.
      command: [...command, '/asset-output'],
      local: {
        tryBundle(outputDir) {
          const [node = process.execPath, ...args] = command;
          execFileSync(node, [...args, outputDir], {
            cwd: projectRoot,
            stdio: ['ignore', process.stderr, 'inherit'],
          });
          return true;
        },
      },
    },
  });
}
