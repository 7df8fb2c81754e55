import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * docs/openapi.json against Redocly's recommended rules (redocly.yaml), with the CLI a user would
 * run (`npx redocly lint docs/openapi.json`). The document is self-contained (no remote `$ref`)
 * and telemetry and the update notice are off, so the run reads no network.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number };
  readonly problems: readonly { readonly ruleId: string; readonly message: string }[];
}

describe('docs/openapi.json', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    // Act
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', 'docs/openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      {
        cwd: root,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(stdout) as LintReport;

    // Assess
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });
});
