import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The whole route manifest is one cached asset (about 2 KiB gzipped), rather than each page's
  // part of it inlined, pretty-printed, into every document and links discovered by fetches
  // (docs/decisions/014-route-manifest-up-front.md).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
