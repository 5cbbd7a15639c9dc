import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { broughtNodeVersion, supportedNodeRange, supportsNode } from "../../node-runtime.js";
import { repoRoot } from "../support/paths";

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");
const majorOf = (version: string) => version.split(".")[0];
const supportedLines = supportedNodeRange.split("||").map((range) => /^\^(\d+)\./.exec(range.trim())?.[1]);

describe("the Node runtimes", () => {
  it("tells supported Node versions from the others by package.json's engines", () => {
    expect(supportedNodeRange).toBe("^22.22.0 || ^24.0.0 || ^26.0.0");
    for (const version of ["22.22.0", "22.23.1", "24.0.0", "24.21.0", "26.10.0"]) expect(supportsNode(version), version).toBe(true);
    for (const version of ["20.20.2", "22.21.9", "22.12.0", "23.11.0", "25.9.0", "27.0.0"]) expect(supportsNode(version), version).toBe(false);
  });

  it("brings a supported Node", () => {
    expect(supportsNode(broughtNodeVersion)).toBe(true);
  });

  // Docker has no engine on CI machines, so the image is never built there: this keeps it honest.
  it("ships the Docker image on the brought Node's line, which CI runs the whole suite on", () => {
    const images = [...read("Dockerfile").matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]!);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(/^node:(\d+)-trixie-slim$/.exec(image)?.[1], image).toBe(majorOf(broughtNodeVersion));
  });

  it("runs the server-side tests in CI on every line package.json allows", () => {
    const lines = /^for line in ([\d ]+); do$/m.exec(read(".ci/run"))?.[1]?.split(" ");
    expect(lines).toEqual(supportedLines);
  });
});
