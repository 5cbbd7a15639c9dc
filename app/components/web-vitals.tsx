import { useId } from "react";
import {
  formatWebVital,
  rateWebVital,
  type WebVitalName,
  type WebVitalRating,
  webVitalThresholds,
  webVitalTitles,
} from "~/monitoring/web-vital-thresholds";

const ratingLabels: Record<WebVitalRating, string> = {
  good: "Good",
  "needs-improvement": "Needs improvement",
  poor: "Poor",
};

const ratingClasses: Record<WebVitalRating, string> = {
  good: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  "needs-improvement": "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  poor: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** A p75 with its rating in words (never colour alone). */
export function WebVitalValue({ name, value }: { name: WebVitalName; value: number }) {
  const rating = rateWebVital(name, value);
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-1 rounded px-1.5 py-0.5 text-sm ${ratingClasses[rating]}`}>
      <span className="font-medium tabular-nums">{formatWebVital(name, value)}</span>
      <span className="text-xs">{ratingLabels[rating]}</span>
    </span>
  );
}

export type DailyPercentile = { day: string; p75: number; samples: number };

const size = { width: 640, height: 180, left: 64, right: 12, top: 10, bottom: 26 };

/**
 * A vital's daily p75 over a run of days, drawn on the server as SVG so that it reads without
 * JavaScript: the good / needs-improvement / poor bands behind a line, a point per day with data.
 */
export function WebVitalChart({ name, days, points }: { name: WebVitalName; days: string[]; points: DailyPercentile[] }) {
  const titleId = useId();
  const summaryId = useId();
  const { good, poor } = webVitalThresholds[name];
  const byDay = new Map(points.map((point) => [point.day, point]));
  const plotted = days.flatMap((day, index) => {
    const point = byDay.get(day);
    return point ? [{ ...point, index }] : [];
  });
  const top = Math.max(poor * 1.25, ...plotted.map((point) => point.p75 * 1.1));
  const plotWidth = size.width - size.left - size.right;
  const plotHeight = size.height - size.top - size.bottom;
  const x = (index: number) => size.left + (days.length > 1 ? (index * plotWidth) / (days.length - 1) : plotWidth / 2);
  const y = (value: number) => size.top + plotHeight - (Math.min(value, top) / top) * plotHeight;
  const latest = plotted.at(-1);
  const summary = latest
    ? `Latest p75 ${formatWebVital(name, latest.p75)} on ${latest.day} (${ratingLabels[rateWebVital(name, latest.p75)].toLowerCase()}), ${plotted.length} of ${days.length} days with samples.`
    : `No samples from ${days[0]} to ${days.at(-1)}.`;

  return (
    <figure className="rounded border border-zinc-200 p-3 dark:border-zinc-800">
      <figcaption className="mb-2 text-sm">
        <span className="font-medium">{name}</span> · {webVitalTitles[name]}, p75 by day (UTC)
      </figcaption>
      <svg viewBox={`0 0 ${size.width} ${size.height}`} role="img" aria-labelledby={titleId} aria-describedby={summaryId} className="h-auto w-full">
        <title id={titleId}>{`${name} p75 by day`}</title>
        <rect x={size.left} y={y(good)} width={plotWidth} height={y(0) - y(good)} className="fill-emerald-100 dark:fill-emerald-950" />
        <rect x={size.left} y={y(poor)} width={plotWidth} height={y(good) - y(poor)} className="fill-amber-100 dark:fill-amber-950" />
        <rect x={size.left} y={y(top)} width={plotWidth} height={y(poor) - y(top)} className="fill-red-100 dark:fill-red-950" />
        {[0, good, poor].map((value) => (
          <text key={value} x={size.left - 6} y={y(value)} textAnchor="end" dominantBaseline="middle" className="fill-zinc-700 text-[11px] dark:fill-zinc-300">
            {formatWebVital(name, value)}
          </text>
        ))}
        {[0, Math.floor((days.length - 1) / 2), days.length - 1].map((index, tick) => (
          <text
            key={index}
            x={x(index)}
            y={size.height - 8}
            textAnchor={(["start", "middle", "end"] as const)[tick]}
            className="fill-zinc-700 text-[11px] dark:fill-zinc-300"
          >
            {days[index]?.slice(5)}
          </text>
        ))}
        {plotted.length > 1 ? (
          <polyline
            points={plotted.map((point) => `${x(point.index)},${y(point.p75)}`).join(" ")}
            className="fill-none stroke-indigo-700 stroke-2 dark:stroke-indigo-300"
          />
        ) : null}
        {plotted.map((point) => (
          <circle key={point.day} cx={x(point.index)} cy={y(point.p75)} r={3.5} className="fill-indigo-700 dark:fill-indigo-300">
            <title>{`${point.day}: p75 ${formatWebVital(name, point.p75)} (${ratingLabels[rateWebVital(name, point.p75)].toLowerCase()}), ${point.samples} samples`}</title>
          </circle>
        ))}
      </svg>
      <p id={summaryId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {summary}
      </p>
    </figure>
  );
}
