import { describe, expect, it } from 'vitest';
import { renderChartSvg } from '../../../shared/domain/chart/chart-svg';
import { wantsPicture } from '../../../shared/http/chart-picture';

/** When the commitments chart answers as SVG, and the picture of no periods (docs/plans-api.md). */

describe('wantsPicture', () => {
  it.each([
    [undefined, undefined, false],
    [undefined, '*/*', false],
    [undefined, 'application/json', false],
    [undefined, 'image/svg+xml', true],
    [undefined, 'text/html, IMAGE/SVG+XML;q=0.9', true],
    [undefined, 'image/svg', false],
    ['svg', undefined, true],
    ['svg', 'application/json', true],
    ['json', 'image/svg+xml', false],
  ] as const)('format %s with Accept %s: %s', (format, accept, expected) => {
    // Act
    const picture = wantsPicture(format, accept);

    // Assess
    expect(picture).toBe(expected);
  });
});

describe('renderChartSvg', () => {
  it('says a range without periods in words, titled and described', () => {
    // Act
    const svg = renderChartSvg([], { scope: 'gcp' });

    // Assess
    expect(svg).toContain('<title id="chart-title">Commitments of gcp</title>');
    expect(svg).toContain('<desc id="chart-desc">No periods in this range.</desc>');
    expect(svg).toContain('>No periods in this range</text>');
    expect(svg).not.toContain('<rect data-series');
  });
});
