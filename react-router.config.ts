import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The whole route manifest is one cached asset (about 2 KiB gzipped), rather than each page's
  // part of it inlined, pretty-printed, into every document and links discovered by fetches
  // (docs/decisions/014-route-manifest-up-front.md).
  routeDiscovery: { mode: "initial" },
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
