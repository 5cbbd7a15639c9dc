import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const appDir = path.resolve(import.meta.dirname, "../../app");

/** Every TypeScript module under app/, as a path relative to it. */
const modules = (readdirSync(appDir, { recursive: true }) as string[]).filter((file) => /\.tsx?$/.test(file)).map((file) => file.split(path.sep).join("/"));

/** The `~/…` modules a file imports (static imports, type imports and dynamic imports alike). */
const importsOf = (file: string) =>
  [...readFileSync(path.join(appDir, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"~\/([^"]+)"/g)].map((m) => m[1]!);

describe("the code's layers", () => {
  it("only the host (and the document's server entry, which it renders through) imports the host", () => {
    const outside = modules.filter((file) => !file.startsWith("host/") && file !== "entry.server.tsx");
    const offenders = outside.filter((file) => importsOf(file).some((target) => target.startsWith("host/")));
    expect(offenders).toEqual([]);
  });

  it("domain modules do not import routes or components", () => {
    const domain = modules.filter((file) => /\.server\.ts$/.test(file) && !file.startsWith("host/") && !file.startsWith("routes/"));
    const offenders = domain.filter((file) => importsOf(file).some((target) => target.startsWith("routes/") || target.startsWith("components/")));
    expect(offenders).toEqual([]);
  });
});
