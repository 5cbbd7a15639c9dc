import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { writeReadableStreamToWritable } from "@react-router/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressResponses } from "~/host/compression.server";

/**
 * A long page written the way React Router writes one (waiting for 'drain' each time the
 * compressed stream is full), through the host's compression: no listener may pile up.
 */
describe("compressed streaming responses", () => {
  const chunks = Array.from({ length: 300 }, () => randomBytes(8192).toString("base64"));
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  let server: http.Server;

  beforeAll(async () => {
    process.on("warning", onWarning);
    const app = express();
    app.use(compressResponses);
    app.get("/long", async (_req, res) => {
      res.type("html");
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      });
      await writeReadableStreamToWritable(body, res);
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
  });

  afterAll(async () => {
    process.off("warning", onWarning);
    await new Promise((resolve) => server.close(resolve));
  });

  it("arrives whole, gzipped, without a MaxListenersExceededWarning", async () => {
    const { port } = server.address() as AddressInfo;
    const { encoding, body } = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/long", headers: { "Accept-Encoding": "gzip" } }, (response) => {
          const parts: Buffer[] = [];
          // A slow reader, so that the server has to wait for 'drain' many times.
          response.on("data", (part: Buffer) => {
            parts.push(part);
            response.pause();
            setTimeout(() => response.resume(), 1);
          });
          response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(parts) }));
        })
        .on("error", reject);
    });
    expect(encoding).toBe("gzip");
    expect(gunzipSync(body).toString()).toBe(chunks.join(""));
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes("drain"))).toEqual([]);
  });
});
