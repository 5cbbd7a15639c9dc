import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths";

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

describe("the Node runtimes", () => {
  // Docker has no engine on CI machines, so the image is never built there: this keeps it honest.
  it("ships the Docker image on a Node major that CI tests and package.json allows", () => {
    const images = [...read("Dockerfile").matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]!);
    expect(images.length).toBeGreaterThan(0);
    const { engines, scripts } = JSON.parse(read("package.json")) as { engines: { node: string }; scripts: Record<string, string> };
    const ci = read(".ci/run");
    for (const image of images) {
      const major = /^node:(\d+)-bookworm-slim$/.exec(image)?.[1];
      expect(major, image).toBeDefined();
      expect(scripts[`test:node${major}`]).toBe(`bash .ci/test-on-node ${major}`);
      // On SQLite only (see .ci/run), or on both databases.
      expect(ci).toMatch(new RegExp(`^(env -u TEST_DATABASE_URL )?npm run test:node${major}$`, "m"));
      expect(engines.node.split("||").map((range) => range.trim().match(/^\^(\d+)\./)?.[1])).toContain(major);
    }
  });
});
