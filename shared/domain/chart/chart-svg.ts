import type { ChartPoint } from '../engine';

/**
 * The commitments chart (#10) as a picture (docs/plans-api.md, "The chart as SVG"): the same points
 * the JSON answer holds, drawn as an SVG document with no script and no external reference. Two
 * panels share the periods: above, the commitment still to be consumed and its locked part; below,
 * each period's savings and unused commitment as bars, with the utilization as a line on a 0-100 %
 * scale. Projected periods are drawn paler, after a line marking today. Every mark carries its
 * period and series (`data-date`, `data-series`) and a `<title>` with its figures, so the picture
 * reads without colours too.
 */

export interface ChartPictureLabels {
  /** What the chart is of, e.g. `aws` or `all providers`. */
  readonly scope: string;
}

const width = 960;
const height = 520;
const left = 72;
const right = 64;
const top = 56;
/** The commitment panel, then the per-period panel below it. */
const commitPanel = { top, height: 150 };
const periodPanel = { top: top + 150 + 56, height: 190 };
const plotWidth = width - left - right;

const colours = {
  remaining: '#1f5fa8',
  locked: '#9cc0e8',
  savings: '#2e8540',
  unused: '#c0392b',
  utilization: '#6b3fa0',
  axis: '#555555',
  grid: '#dddddd',
  text: '#1a1a1a',
};

/** A figure for a label: dollars with thousands separators, no cents above 100. */
function dollars(value: number): string {
  const digits = Math.abs(value) >= 100 || value === 0 ? 0 : 2;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

function percent(value: number): string {
  return `${Math.round(value * 100)} %`;
}

/** Rounds a coordinate to a tenth of a pixel: the document stays small and stable. */
function at(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** A scale's top: the largest value rounded up to a readable step, never 0. */
function niceMax(values: readonly number[]): number {
  const largest = Math.max(0, ...values);
  if (largest === 0) return 1;
  const step = 10 ** Math.floor(Math.log10(largest));
  return Math.ceil(largest / step) * step;
}

function text(x: number, y: number, content: string, anchor = 'start', size = 12): string {
  return `<text x="${at(x)}" y="${at(y)}" font-size="${size}" text-anchor="${anchor}" fill="${colours.text}">${content}</text>`;
}

/** A horizontal axis with three gridlines and their labels on the left or right. */
function gridlines(
  panel: { top: number; height: number },
  max: number,
  label: (v: number) => string,
  side: 'left' | 'right',
): string[] {
  return [0, 0.5, 1].map((share) => {
    const y = panel.top + panel.height * (1 - share);
    const x = side === 'left' ? left - 6 : width - right + 6;
    return `<line x1="${left}" x2="${width - right}" y1="${at(y)}" y2="${at(y)}" stroke="${colours.grid}"/>${text(x, y + 4, label(max * share), side === 'left' ? 'end' : 'start', 11)}`;
  });
}

function legend(x: number, y: number, items: readonly (readonly [string, string])[]): string {
  let offset = x;
  return items
    .map(([colour, name]) => {
      const item = `<rect x="${at(offset)}" y="${at(y - 10)}" width="12" height="12" fill="${colour}"/>${text(offset + 16, y, name)}`;
      offset += 28 + name.length * 7;
      return item;
    })
    .join('');
}

/** The chart of `points` as an SVG document (UTF-8 text). */
export function renderChartSvg(points: readonly ChartPoint[], labels: ChartPictureLabels): string {
  const first = points[0]?.date;
  const last = points.at(-1)?.date;
  const monthly =
    points.length > 1 && (points[1]?.date.slice(8) ?? '') === '01' && (first?.slice(8) ?? '') === '01';
  const title = first
    ? `Commitments of ${labels.scope}, ${first} to ${last}`
    : `Commitments of ${labels.scope}`;
  const totalSavings = points.reduce((sum, point) => sum + point.savings, 0);
  const totalUnused = points.reduce((sum, point) => sum + point.unutilized_commit, 0);
  const description =
    points.length === 0
      ? 'No periods in this range.'
      : `${points.length} ${monthly ? 'monthly' : 'daily'} periods. Savings ${dollars(totalSavings)} in all, unused commitment ${dollars(totalUnused)}. Commitment still to be consumed: ${dollars(points[0]?.remaining_commit ?? 0)} at the start, ${dollars(points.at(-1)?.remaining_commit ?? 0)} at the end. Projected periods are paler.`;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-desc" font-family="system-ui, sans-serif">`,
    `<title id="chart-title">${title}</title>`,
    `<desc id="chart-desc">${description}</desc>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(left, 28, title, 'start', 16),
  ];
  if (points.length === 0) {
    parts.push(text(width / 2, height / 2, 'No periods in this range', 'middle', 14), '</svg>');
    return parts.join('\n');
  }

  const band = plotWidth / points.length;
  const xOf = (index: number) => left + band * index;
  const commitMax = niceMax(points.map((point) => point.remaining_commit));
  const periodMax = niceMax(points.map((point) => Math.max(point.savings, point.unutilized_commit)));
  const commitY = (value: number) => commitPanel.top + commitPanel.height * (1 - value / commitMax);
  const periodY = (value: number) =>
    periodPanel.top + periodPanel.height * (1 - Math.max(0, value) / periodMax);
  const utilizationY = (value: number) => periodPanel.top + periodPanel.height * (1 - value);

  parts.push(text(left, commitPanel.top - 8, 'Commitment still to be consumed', 'start', 13));
  parts.push(...gridlines(commitPanel, commitMax, dollars, 'left'));
  parts.push(
    text(
      left,
      periodPanel.top - 8,
      `Each ${monthly ? 'month' : 'day'}: savings and unused commitment; utilization`,
      'start',
      13,
    ),
  );
  parts.push(...gridlines(periodPanel, periodMax, dollars, 'left'));
  parts.push(
    ...[0, 0.5, 1].map((share) =>
      text(width - right + 6, utilizationY(share) + 4, percent(share), 'start', 11),
    ),
  );

  const today = points.findIndex((point) => point.is_projection);
  if (today > 0) {
    const x = xOf(today);
    parts.push(
      `<line data-series="today" x1="${at(x)}" x2="${at(x)}" y1="${commitPanel.top}" y2="${periodPanel.top + periodPanel.height}" stroke="${colours.axis}" stroke-dasharray="4 3"/>`,
      text(x + 4, commitPanel.top + 12, 'projection', 'start', 11),
    );
  }

  const area = (value: (point: ChartPoint) => number) =>
    points.map((point, index) => `${at(xOf(index) + band / 2)},${at(commitY(value(point)))}`).join(' ');
  const baseline = `${at(xOf(points.length - 1) + band / 2)},${at(commitY(0))} ${at(xOf(0) + band / 2)},${at(commitY(0))}`;
  parts.push(
    `<polygon data-series="locked" points="${area((point) => point.locked_commit)} ${baseline}" fill="${colours.locked}"/>`,
  );
  parts.push(
    `<polyline data-series="remaining" points="${area((point) => point.remaining_commit)}" fill="none" stroke="${colours.remaining}" stroke-width="2"/>`,
  );

  const barWidth = Math.max(1, band * 0.36);
  for (const [index, point] of points.entries()) {
    const opacity = point.is_projection ? ' fill-opacity="0.45"' : '';
    const figures = `${point.date}${point.is_projection ? ' (projected)' : ''}: savings ${dollars(point.savings)}, unused commitment ${dollars(point.unutilized_commit)}, utilization ${percent(point.utilization)}, commitment remaining ${dollars(point.remaining_commit)} (locked ${dollars(point.locked_commit)})`;
    const bar = (series: string, value: number, offset: number, colour: string) => {
      const y = periodY(value);
      return `<rect data-series="${series}" data-date="${point.date}" x="${at(xOf(index) + band * 0.12 + offset)}" y="${at(y)}" width="${at(barWidth)}" height="${at(periodPanel.top + periodPanel.height - y)}" fill="${colour}"${opacity}><title>${figures}</title></rect>`;
    };
    parts.push(
      `<g data-date="${point.date}">`,
      bar('savings', point.savings, 0, colours.savings),
      bar('unused', point.unutilized_commit, barWidth, colours.unused),
      '</g>',
    );
  }
  parts.push(
    `<polyline data-series="utilization" points="${points.map((point, index) => `${at(xOf(index) + band / 2)},${at(utilizationY(point.utilization))}`).join(' ')}" fill="none" stroke="${colours.utilization}" stroke-width="2"/>`,
  );

  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  const axisY = periodPanel.top + periodPanel.height;
  parts.push(
    `<line x1="${left}" x2="${width - right}" y1="${axisY}" y2="${axisY}" stroke="${colours.axis}"/>`,
  );
  for (const [index, point] of points.entries()) {
    if (index % labelEvery === 0)
      parts.push(
        text(
          xOf(index) + band / 2,
          axisY + 16,
          monthly ? point.date.slice(0, 7) : point.date.slice(5),
          'middle',
          11,
        ),
      );
  }
  parts.push(
    legend(left, height - 14, [
      [colours.remaining, 'commitment remaining'],
      [colours.locked, 'locked'],
      [colours.savings, 'savings'],
      [colours.unused, 'unused commitment'],
      [colours.utilization, 'utilization'],
    ]),
    '</svg>',
  );
  return parts.join('\n');
}
