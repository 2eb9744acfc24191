// A small SVG chart of the metrics' series: requests per bucket as bars (errors in red on top), or the latency
// quantiles as lines. No library: a few dozen to 600 points.

import type { ReactNode } from 'react';
import type { Metrics } from './monitor-api';
import { latency } from './monitor-api';

type Points = Metrics['series']['points'];
const WIDTH = 600;
const HEIGHT = 120;

/** The chart's frame: a fixed coordinate space stretched to the card's width. */
function Chart({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <svg
      className="series-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      data-testid={testId}
    >
      {children}
    </svg>
  );
}

export function RequestBars({ points, testId }: { points: Points; testId: string }) {
  const most = Math.max(1, ...points.map((point) => point.requests));
  const width = WIDTH / Math.max(1, points.length);
  return (
    <Chart label={`requests per bucket, at most ${most}`} testId={testId}>
      {points.map((point, index) => {
        const height = (point.requests / most) * (HEIGHT - 4);
        const errors = (point.errors / most) * (HEIGHT - 4);
        return point.requests === 0 ? null : (
          <g key={point.start_ms}>
            <rect
              x={index * width}
              y={HEIGHT - height}
              width={Math.max(1, width - 1)}
              height={height}
              className="bar-ok"
            />
            {errors > 0 ? (
              <rect
                x={index * width}
                y={HEIGHT - errors}
                width={Math.max(1, width - 1)}
                height={errors}
                className="bar-error"
              />
            ) : null}
          </g>
        );
      })}
    </Chart>
  );
}

const QUANTILES = [
  ['p50_us', 'p50'],
  ['p95_us', 'p95'],
  ['p99_us', 'p99'],
] as const;

export function LatencyLines({ points, testId }: { points: Points; testId: string }) {
  const most = Math.max(1, ...points.flatMap((point) => QUANTILES.map(([key]) => point[key] ?? 0)));
  const step = WIDTH / Math.max(1, points.length - 1);
  return (
    <Chart label={`latency p50, p95 and p99, at most ${latency(most)}`} testId={testId}>
      {QUANTILES.map(([key, name]) => {
        const line = points
          .map((point, index) =>
            point[key] === null ? null : `${index * step},${HEIGHT - 2 - ((point[key] ?? 0) / most) * (HEIGHT - 6)}`,
          )
          .filter((xy) => xy !== null)
          .join(' ');
        return (
          <polyline key={name} points={line} className={`line-${name}`} fill="none" vectorEffect="non-scaling-stroke" />
        );
      })}
    </Chart>
  );
}
