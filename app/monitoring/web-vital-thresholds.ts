export const webVitalNames = ["LCP", "INP", "CLS", "FCP", "TTFB"] as const;
export const webVitalRatings = ["good", "needs-improvement", "poor"] as const;

export type WebVitalName = (typeof webVitalNames)[number];
export type WebVitalRating = (typeof webVitalRatings)[number];

/**
 * web.dev's thresholds for the Core Web Vitals, used by /admin/monitoring to rate each route's p75:
 * at most `good` is good, above `poor` is poor, in between needs improvement. CLS is a unitless
 * score; the others are milliseconds.
 */
export const webVitalThresholds: Record<WebVitalName, { good: number; poor: number }> = {
  LCP: { good: 2500, poor: 4000 },
  INP: { good: 200, poor: 500 },
  CLS: { good: 0.1, poor: 0.25 },
  FCP: { good: 1800, poor: 3000 },
  TTFB: { good: 800, poor: 1800 },
};

export const webVitalTitles: Record<WebVitalName, string> = {
  LCP: "Largest Contentful Paint",
  INP: "Interaction to Next Paint",
  CLS: "Cumulative Layout Shift",
  FCP: "First Contentful Paint",
  TTFB: "Time to First Byte",
};

export function rateWebVital(name: WebVitalName, value: number): WebVitalRating {
  const { good, poor } = webVitalThresholds[name];
  if (value <= good) return "good";
  return value <= poor ? "needs-improvement" : "poor";
}

/** "1.24 s", "180 ms", "0.08": how web.dev writes each vital. */
export function formatWebVital(name: WebVitalName, value: number): string {
  if (name === "CLS") return value.toFixed(2);
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return `${Math.round(value)} ms`;
}
