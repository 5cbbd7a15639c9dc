import { describe, expect, it } from "vitest";
import { routePatternFor, withRoutePatterns } from "~/monitoring/route-patterns.server";

const patterns = ["/", "/w/new", "/w/:workspace", "/w/:workspace/p/:key/issues/new", "/w/:workspace/p/:key/issues/:number", "/*"];

describe("route patterns of browser reports", () => {
  it("maps a path to its route's pattern, as React Router ranks routes", () => {
    expect(routePatternFor("/w/acme", patterns)).toBe("/w/:workspace");
    expect(routePatternFor("/w/new", patterns)).toBe("/w/new");
    expect(routePatternFor("/w/acme/p/WEB/issues/new", patterns)).toBe("/w/:workspace/p/:key/issues/new");
    expect(routePatternFor("/w/acme/p/WEB/issues/42", patterns)).toBe("/w/:workspace/p/:key/issues/:number");
    expect(routePatternFor("/nowhere/at/all", patterns)).toBe("/*");
  });

  it("maps a pattern to itself", () => {
    for (const pattern of patterns) expect(routePatternFor(pattern, patterns)).toBe(pattern);
  });

  it("refuses a beacon with a route no pattern matches", () => {
    const event = { kind: "client_error" as const, message: "Error: x", route: "/nowhere", url: "/nowhere" };
    expect(withRoutePatterns({ events: [event] }, patterns.slice(0, -1))).toBeNull();
    expect(withRoutePatterns({ events: [event] }, patterns)).toEqual({ events: [{ ...event, route: "/*" }] });
  });
});
