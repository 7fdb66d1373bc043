/**
 * A line chart of a time series with uPlot (about 20 KB gzipped), loaded only when a chart is
 * shown so the other pages stay small. A table with the same numbers follows it for screen readers
 * and keyboard users (the canvas alone says nothing to them).
 */
import { useEffect, useRef } from 'preact/hooks';

export interface Series { label: string; values: number[]; color: string }

export function TimeChart({ title, times, series }: { title: string; times: number[]; series: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let chart: { destroy(): void; setSize(s: { width: number; height: number }): void } | undefined;
    let gone = false;
    const observer = new ResizeObserver(() => chart?.setSize({ width: el.clientWidth, height: 240 }));
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (gone) return;
      chart = new UPlot({
        width: el.clientWidth,
        height: 240,
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2 }))],
        axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor' }],
        legend: { show: true },
      }, [times, ...series.map((s) => s.values)], el);
      observer.observe(el);
    });
    return () => { gone = true; observer.disconnect(); chart?.destroy(); };
  }, [times, series]);
  return <figure class="chart"><div ref={box} role="img" aria-label={title} data-testid="chart" /><figcaption class="sr-only">{title}</figcaption></figure>;
}
