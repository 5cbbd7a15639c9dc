import type { ServerResponse } from "node:http";

/**
 * Runs `adjust` just before the response's status line and headers are written, when its status
 * is final: every way of sending headers ends in writeHead (Node's implicit headers call it too).
 */
export function beforeResponseHead(res: ServerResponse, adjust: (res: ServerResponse, status: number) => void): void {
  const writeHead = res.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.headersSent) adjust(this, typeof args[0] === "number" ? args[0] : this.statusCode);
    return writeHead.apply(this, args);
  };
}
