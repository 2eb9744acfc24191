// Candlestick chart of the selected code: one-minute bars with volume, live from the stream, in Taiwan time.

import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { messageOf } from '../api';
import { type Bar, loadBars, onBar } from '../bars';
import { contractInfo } from '../contracts';
import { useTheme } from '../hooks';
import { quoteBook } from '../quotes';
import { simClock } from '../sim-clock';
import { cssColor } from '../theme';
import { Card } from './Card';

interface PriceChart {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  colors: { up: string; down: string; upVolume: string; downVolume: string };
}

const withAlpha = (rgba: string, alpha: number) => rgba.replace(/,\s*[\d.]+\)$/, `, ${alpha})`);

function createPriceChart(container: HTMLElement): PriceChart {
  const chart = createChart(container, {
    autoSize: true,
    timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 4 },
    // entireTextOnly: the top price label was drawn half outside the chart.
    rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.24 }, entireTextOnly: true },
    crosshair: { mode: 0 },
  });
  const candles = chart.addSeries(CandlestickSeries, { borderVisible: false });
  const volume = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  const parts = { chart, candles, volume, colors: { up: '', down: '', upVolume: '', downVolume: '' } };
  paint(parts);
  return parts;
}

/** Colours from the theme's CSS variables; in Taiwan red is up and green is down. */
function paint(parts: PriceChart): void {
  const up = cssColor('--up');
  const down = cssColor('--down');
  parts.colors = { up, down, upVolume: withAlpha(up, 0.35), downVolume: withAlpha(down, 0.35) };
  const grid = cssColor('--border');
  parts.chart.applyOptions({
    layout: {
      // The real card colour, not transparent: the chart picks its attribution logo's colours from it.
      background: { type: ColorType.Solid, color: cssColor('--card') },
      textColor: cssColor('--muted-foreground'),
      fontFamily: getComputedStyle(document.body).fontFamily,
    },
    grid: { vertLines: { color: withAlpha(grid, 0.5) }, horzLines: { color: withAlpha(grid, 0.5) } },
    rightPriceScale: { borderColor: grid },
    timeScale: { borderColor: grid },
  });
  parts.candles.applyOptions({ upColor: up, downColor: down, wickUpColor: up, wickDownColor: down });
}

function candleOf(bar: Bar) {
  return { time: bar.time as UTCTimestamp, open: bar.open, high: bar.high, low: bar.low, close: bar.close };
}

function volumeOf(parts: PriceChart, bar: Bar) {
  const color = bar.close >= bar.open ? parts.colors.upVolume : parts.colors.downVolume;
  return { time: bar.time as UTCTimestamp, value: bar.volume, color };
}

function show(parts: PriceChart, bars: Bar[]): void {
  parts.candles.setData(bars.map(candleOf));
  parts.volume.setData(bars.map((bar) => volumeOf(parts, bar)));
  parts.chart.timeScale().scrollToRealTime();
}

/** The code's trading day: from its quote, else from the gateway's clock; null until either is known. */
function useTradingDay(code: string): string | null {
  useSyncExternalStore(quoteBook.subscribe, quoteBook.getVersion);
  const quoteDay = quoteBook.get(code).date;
  const now = simClock.now();
  return quoteDay ?? (now === null ? null : new Date(now).toISOString().slice(0, 10));
}

export function ChartCard({ code }: { code: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<PriceChart | null>(null);
  const [name, setName] = useState('');
  const [status, setStatus] = useState<string | null>('Loading…');
  /** Taiwan time of the last bar the history brought, for tests and curious readers of the DOM. */
  const [historyEnd, setHistoryEnd] = useState('');
  const themeName = useTheme();
  const tradingDay = useTradingDay(code);

  useEffect(() => {
    if (!container.current) return;
    const parts = createPriceChart(container.current);
    chart.current = parts;
    return () => {
      parts.chart.remove();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (chart.current && themeName) paint(chart.current);
  }, [themeName]);

  // Runs again when the trading day becomes known (or rolls): the history range depends on it.
  useEffect(() => {
    const parts = chart.current;
    if (!parts) return;
    let current = true;
    setStatus('Loading…');
    show(parts, []);
    contractInfo(code).then(
      (info) => current && setName(info.name),
      () => current && setName(''),
    );
    loadBars(code, tradingDay).then(
      (bars) => {
        if (!current) return;
        show(parts, bars);
        setHistoryEnd(bars.length === 0 ? '' : new Date(bars.at(-1)!.time * 1000).toISOString().slice(0, 16));
        setStatus(bars.length === 0 ? 'No trades yet today' : null);
      },
      (error: unknown) => current && setStatus(messageOf(error)),
    );
    const stop = onBar((barCode, bar) => {
      if (barCode !== code) return;
      parts.candles.update(candleOf(bar));
      parts.volume.update(volumeOf(parts, bar));
      setStatus(null);
    });
    return () => {
      current = false;
      stop();
    };
  }, [code, tradingDay]);

  return (
    <Card
      id="chart"
      title="Chart"
      span={6}
      actions={
        <span className="muted" data-testid="chart-code">
          <strong className="mono">{code}</strong> {name} · 1 min · Taiwan time
        </span>
      }
    >
      <div className="chart-frame" data-testid="chart-frame" data-history-end={historyEnd}>
        <div className="chart" ref={container} data-testid="chart-canvas" />
        {status ? (
          <p className="chart-status" data-testid="chart-status">
            {status}
          </p>
        ) : null}
      </div>
    </Card>
  );
}
