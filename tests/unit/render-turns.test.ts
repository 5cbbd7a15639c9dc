/**
 * Long pages rendered in turns (decision record 027): on the server each InTurn part is rendered on
 * a turn of the event loop of its own, so that other work waiting (another request's) runs between
 * two parts; the markup is the same as without turns, parts in their order, and in the browser
 * (no turns) InTurn is only its children.
 */
import { Writable } from "node:stream";
import { createElement as h, type ReactNode } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InTurn, RenderTurnsContext } from "~/components/render-turns";
import { createRenderTurns } from "~/host/render-turns.server";

/** The page whole, as app/entry.server.tsx renders it (everything ready, then written out at once). */
function renderWhole(page: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const { pipe } = renderToPipeableStream(page, {
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        pipe(
          new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              callback();
              resolve(Buffer.concat(chunks).toString("utf8"));
            },
          }),
        );
      },
      onShellError: reject,
      onError: reject,
    });
  });
}

describe("rendering in turns", () => {
  const names = ["a", "b", "c", "d", "e"];
  /** A list whose items are parts; each item notes in `log` when it is rendered. */
  const list = (log: string[]) =>
    h(
      "ol",
      null,
      names.map((name) =>
        h(InTurn, {
          key: name,
          part: `list.${name}`,
          children: h(() => {
            log.push(name);
            return h("li", null, name);
          }),
        }),
      ),
    );

  it("renders each part on a turn of its own, with other work waiting run in between", async () => {
    const log: string[] = [];
    // Another request: something to do on every turn of the event loop while the page renders.
    let rendering = true;
    const otherRequest = () => {
      log.push("other");
      if (rendering) setImmediate(otherRequest);
    };
    setImmediate(otherRequest);
    const html = await renderWhole(h(RenderTurnsContext, { value: createRenderTurns() }, list(log)));
    rendering = false;

    expect(html).toBe("<ol><li>a</li><li>b</li><li>c</li><li>d</li><li>e</li></ol>");
    const rendered = names.map((name) => log.indexOf(name));
    expect(rendered).toEqual([...rendered].sort((x, y) => x - y));
    for (let i = 1; i < names.length; i += 1) {
      expect(log.slice(rendered[i - 1]! + 1, rendered[i]), `between ${names[i - 1]} and ${names[i]}`).toContain("other");
    }
  });

  it("renders the same markup without turns, as the browser does, all at once", () => {
    const log: string[] = [];
    expect(renderToString(list(log))).toBe("<ol><li>a</li><li>b</li><li>c</li><li>d</li><li>e</li></ol>");
    expect(log).toEqual(names);
  });
});
