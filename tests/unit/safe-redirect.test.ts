/**
 * safeRedirect: only a path on this site, and one a Location header can carry (issue 11: a
 * `redirectTo` with a direction control or a lone surrogate was a 500 after signing in).
 */
import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/auth/safe-redirect";

describe("safeRedirect", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    for (const path of ["/", "/w/acme", "/w/acme/p/WEB/issues?status=open&q=login#top", "/%ZZ"]) expect(safeRedirect(path)).toBe(path);
  });

  it("refuses anything that leads elsewhere", () => {
    for (const to of ["//evil.example", "/\\evil.example", "/\tevil", "https://evil.example/", "evil", "", undefined, 42, "/a\u0000b", "/a\nb"]) {
      expect(safeRedirect(to, "/home"), String(to)).toBe("/home");
    }
  });

  it("percent-encodes what a Location header cannot hold", () => {
    expect(safeRedirect("/w/\u202ex")).toBe("/w/%E2%80%AEx");
    expect(safeRedirect("/w/café?q=naïve")).toBe("/w/caf%C3%A9?q=na%C3%AFve");
    expect(safeRedirect("/a\u0085b")).toBe("/a%C2%85b");
    expect(safeRedirect("/a\ud800")).toBe("/a%EF%BF%BD");
    for (const to of ["/w/\u202ex", "/w/café", "/a\u0085b", "/a\ud800", "/a b"]) expect(safeRedirect(to)).toMatch(/^[\x21-\x7e]+$/);
  });
});
