import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../support/admin-cli';
import { launchChromium } from '../support/headless-chromium';
import { useSeededApi } from '../support/seeded-api';

/**
 * The commitments chart (#10) as SVG, asked for with `Accept: image/svg+xml` or `format=svg`, on the
 * demo customer `npm start` seeds: the same points as the JSON answer (still the default), drawn
 * where the data says, checked in headless Chromium on the marks' rendered boxes. The screenshot
 * lands in test-results/ (ignored by git).
 */

interface Point {
  readonly date: string;
  readonly savings: number;
  readonly unutilized_commit: number;
  readonly utilization: number;
  readonly is_projection: boolean;
}

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const api = useSeededApi();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const chartPath = () =>
  `/v1/org/${api.orgId}/commitments/chart?provider=aws&start_date=${day(-20)}&end_date=${day(10)}`;

describe('the commitments chart as a picture', () => {
  it('answers SVG for Accept: image/svg+xml and for format=svg alike, strictly typed, with no script', async () => {
    // Act
    const [accepted, formatted, json] = await Promise.all([
      api.call(chartPath(), { apiKey: api.adminKey, headers: { accept: 'image/svg+xml' } }),
      api.call(`${chartPath()}&format=svg`, { apiKey: api.adminKey }),
      api.call(chartPath(), { apiKey: api.adminKey, headers: { accept: '*/*' } }),
    ]);

    // Assess
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('content-type')).toBe('image/svg+xml');
    expect(accepted.headers.get('x-content-type-options')).toBe('nosniff');
    expect(accepted.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(formatted.body).toBe(accepted.body);
    const svg = accepted.body as string;
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toMatch(/<title id="chart-title">Commitments of aws, /);
    expect(svg).toMatch(/<desc id="chart-desc">31 daily periods\./);
    expect(svg).not.toMatch(/<script|href=|on[a-z]+=/i);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body.data).toHaveLength(31);
  });

  it('draws each period where its figures say: bars to one scale in date order, today before the projection', async () => {
    // Prepare
    const points = (await api.call(chartPath(), { apiKey: api.adminKey })).body.data as Point[];
    const page = await browser.newPage({ viewport: { width: 1000, height: 560 } });
    await page.setExtraHTTPHeaders({ 'x-api-key': api.adminKey });

    // Act
    const response = await page.goto(new URL(`${chartPath()}&format=svg`, api.server.api.baseUrl).href);
    const marks = async (series: string) => {
      const found: Record<string, Box> = {};
      for (const mark of await page.locator(`rect[data-series="${series}"]`).all()) {
        const box = await mark.boundingBox();
        if (box) found[(await mark.getAttribute('data-date')) ?? ''] = box;
      }
      return found;
    };
    const boxes = {
      savings: await marks('savings'),
      unused: await marks('unused'),
      today: await page.locator('[data-series="today"]').boundingBox(),
    };
    await mkdir(join('test-results', 'chart'), { recursive: true });
    const screenshot = await page.screenshot({
      path: join('test-results', 'chart', 'commitments-chart.png'),
    });
    await page.close();

    // Assess
    expect(response?.headers()['content-type']).toBe('image/svg+xml');
    expect(screenshot.length).toBeGreaterThan(5_000);
    expect(Object.keys(boxes.savings)).toEqual(points.map((point) => point.date));
    const bars = points.flatMap(
      (point) =>
        [
          [point.savings, boxes.savings[point.date] as Box],
          [point.unutilized_commit, boxes.unused[point.date] as Box],
        ] as const,
    );
    const [largestValue, largestBox] = bars.reduce((a, b) => (b[0] > a[0] ? b : a));
    expect(largestValue).toBeGreaterThan(0);
    const pixelsPerDollar = largestBox.height / largestValue;
    for (const [value, box] of bars) expect(Math.abs(box.height - value * pixelsPerDollar)).toBeLessThan(1);
    const lefts = points.map((point) => (boxes.savings[point.date] as Box).x);
    expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
    const firstProjected = points.findIndex((point) => point.is_projection);
    expect(firstProjected).toBeGreaterThan(0);
    const todayX = boxes.today?.x ?? Number.NaN;
    expect(todayX).toBeGreaterThan(lefts[firstProjected - 1] as number);
    expect(todayX).toBeLessThanOrEqual(lefts[firstProjected] as number);
  });

  it('is what npm run admin -- chart writes to a file', async () => {
    // Prepare
    const dir = dirname(api.server.api.credentialsPath);
    const out = join(dir, 'chart.svg');
    const dates = ['--start-date', day(-20), '--end-date', day(10)];

    // Act
    const printed = await admin(dir, [
      'chart',
      '--org',
      api.orgId,
      '--out',
      out,
      '--provider',
      'aws',
      ...dates,
    ]);
    const served = await api.call(`${chartPath()}&format=svg`, { apiKey: api.adminKey });

    // Assess
    expect(printed).toEqual({ org_id: api.orgId, out, points: 31, first_date: day(-20), last_date: day(10) });
    expect(await readFile(out, 'utf8')).toBe(served.body);
  });
});
