import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server";

type RawResponse = { status: number; headers: Map<string, string>; body: string };

/**
 * A connection on which a test writes raw bytes: what fetch cannot send (no Host, two of them,
 * absolute-form targets, a body announced and never sent) and what it hides (how the connection ends).
 */
class RawConnection {
  private received = "";
  private onData = () => {};
  private readonly socket: net.Socket;
  /** How the server left the connection: `end` (it closed it) or the error the client got. */
  readonly ended: Promise<string>;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = net.connect(Number(port), hostname);
    this.socket.on("data", (chunk: Buffer) => {
      this.received += chunk.toString("latin1");
      this.onData();
    });
    this.ended = new Promise((resolve) => {
      this.socket.on("end", () => resolve("end"));
      this.socket.on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
    });
  }

  write(text: string): void {
    this.socket.write(Buffer.from(text, "latin1"));
  }

  /**
   * The next complete response: its body has a Content-Length, is chunked (to the last chunk), or
   * runs to the end of the connection (HTTP/1.0).
   */
  response(): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      let ended = false;
      const parse = () => {
        const end = this.received.indexOf("\r\n\r\n");
        if (end < 0) return ended && reject(new Error(`the connection ended before a complete response: ${JSON.stringify(this.received)}`));
        const [statusLine, ...lines] = this.received.slice(0, end).split("\r\n");
        const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
        const rest = this.received.slice(end + 4);
        const lastChunk = rest.indexOf("\r\n0\r\n\r\n");
        const bodyLength = headers.has("content-length")
          ? Number(headers.get("content-length"))
          : headers.get("transfer-encoding") === "chunked"
            ? lastChunk < 0 ? Infinity : lastChunk + 7
            : ended ? rest.length : Infinity;
        if (rest.length < bodyLength) return ended && reject(new Error(`the connection ended before a complete response: ${JSON.stringify(this.received)}`));
        this.received = rest.slice(bodyLength);
        this.onData = () => {};
        resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: Buffer.from(rest.slice(0, bodyLength), "latin1").toString("utf8") });
      };
      this.onData = parse;
      void this.ended.then(() => {
        ended = true;
        parse();
      });
      parse();
    });
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Sends one raw request on a new connection and reads its response. */
async function exchange(url: string, request: string): Promise<RawResponse> {
  const connection = new RawConnection(url);
  try {
    connection.write(request);
    return await connection.response();
  } finally {
    connection.destroy();
  }
}

describe.each(testDialects)("malformed requests on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;
  let host: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Behind a trusted proxy (every test request comes from loopback), X-Forwarded-* name the host and scheme.
    server = await startServer({ ...database.env, TRUST_PROXY: "loopback" });
    host = new URL(server.url).host;
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const get = (target: string, headers: string) => `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;

  it.each([
    ["HTTP/1.0 without Host", () => "GET / HTTP/1.0\r\n\r\n"],
    ["a Host with a space", () => get("/", "Host: a b\r\n")],
    ["an empty Host", () => get("/login", "Host: \r\n")],
    ["a Host with a port out of range", () => get("/", "Host: 127.0.0.1:99999\r\n")],
    ["a Host with user information", () => get("/", "Host: ada@127.0.0.1\r\n")],
    ["a Host that is not an IPv4 address nor a name", () => get("/", "Host: 300.0.0.1\r\n")],
    ["two Host headers", () => get("/", `Host: ${host}\r\nHost: other.example\r\n`)],
    ["an absolute-form target naming another host", () => get("http://other.example/login", `Host: ${host}\r\n`)],
    ["an asterisk-form target", () => `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`],
    ["a forwarded host with a space", () => get("/", `Host: ${host}\r\nX-Forwarded-Host: a b\r\n`)],
    ["a forwarded host list with a port out of range", () => get("/", `Host: ${host}\r\nX-Forwarded-Host: a.example, b.example:99999\r\n`)],
    ["a forwarded scheme that is not http(s)", () => get("/", `Host: ${host}\r\nX-Forwarded-Proto: a b\r\n`)],
  ])("answers %s with 400 and a plain page", async (_case, request) => {
    const response = await exchange(server.url, request());
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.body).toContain("That request was not valid.");
    expect(response.headers.get("connection")).toBe("close");
  });

  it("logs a malformed request as a 400 with its request id, not as an error", async () => {
    const response = await exchange(server.url, get("/", "Host: a b\r\n"));
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await expect
      .poll(() => server.logs)
      .toContainEqual(expect.objectContaining({ reqId: requestId, level: 30, res: { statusCode: 400 } }));
    expect(server.logs.filter((line) => line.digest !== undefined)).toEqual([]);
  });

  it.each([
    ["HTTP/1.0 with a Host", () => `GET /login HTTP/1.0\r\nHost: ${host}\r\n\r\n`],
    ["an IPv6 Host", () => get("/login", "Host: [::1]:3000\r\n")],
    ["a Host name in capitals, with an empty port", () => get("/login", "Host: CAIRN.EXAMPLE:\r\n")],
    ["a forwarded host and scheme", () => get("/login", `Host: ${host}\r\nX-Forwarded-Host: cairn.example.com\r\nX-Forwarded-Proto: https\r\n`)],
  ])("serves %s", async (_case, request) => {
    const response = await exchange(server.url, request());
    expect(response.status).toBe(200);
    expect(response.body).toContain("Sign in");
  });

  it("serves an absolute-form target naming this host as the page it names", async () => {
    const response = await exchange(server.url, get(`http://${host}/login?redirectTo=%2Fsettings`, `Host: ${host}\r\n`));
    expect(response.body).toContain('name="redirectTo" value="/settings"');
  });

  /**
   * After refusing a body unread (413, 411), the server says `Connection: close` and closes the
   * connection once the response is sent. Otherwise it kept the connection alive and waited for the
   * announced body: whatever the client sent next on that connection (its next request) was read as
   * that body, and never answered.
   */
  describe("refusing a body unread", () => {
    const oversized = 2 * 1024 * 1024;

    it("answers an oversized body with 413 and closes the connection", async () => {
      const connection = new RawConnection(server.url);
      try {
        // A client that waits for the answer before sending the body (as with Expect: 100-continue).
        connection.write(`POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${oversized}\r\n\r\n`);
        const refused = await connection.response();
        expect(refused.status).toBe(413);
        expect(refused.body).toContain("That is too large. Requests may be at most 1 MiB.");
        expect(refused.headers.get("connection")).toBe("close");
        expect(await connection.ended).toBe("end");
      } finally {
        connection.destroy();
      }
    });

    it("answers React Router's data requests with the message alone, which the page's error boundary shows", async () => {
      const connection = new RawConnection(server.url);
      try {
        // With JavaScript, a form posts to its page's `.data` URL; a page's HTML would show there as its source.
        connection.write(`POST /w/acme/p/WEB/issues/1.data HTTP/1.1\r\nHost: ${host}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${1024 ** 3}\r\n\r\n`);
        const refused = await connection.response();
        expect(refused.status).toBe(413);
        expect(refused.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        expect(refused.body).toBe("That is too large. Files may be at most 10 MiB each, 10 at a time.");
      } finally {
        connection.destroy();
      }
    });

    it("answers an oversized body sent whole with 413, read before the connection closes (no reset)", async () => {
      // As a browser without JavaScript posts a big form: headers and body at once. Closing with
      // the body unread would reset the connection, and the client could lose the answer.
      const body = `title=${"x".repeat(4 * oversized)}`;
      for (let attempt = 0; attempt < 10; attempt++) {
        const connection = new RawConnection(server.url);
        try {
          connection.write(`POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
          const refused = await connection.response();
          expect(refused.status).toBe(413);
          expect(await connection.ended).toBe("end");
        } finally {
          connection.destroy();
        }
      }
    });

    it("never reads what follows an oversized body's headers as a body, nor answers it on that connection", async () => {
      const connection = new RawConnection(server.url);
      try {
        connection.write(`POST / HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${oversized}\r\n\r\n`);
        expect((await connection.response()).headers.get("connection")).toBe("close");
        // Not a body: a next request, which must go on a new connection.
        connection.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
        await expect(connection.response()).rejects.toThrow(/the connection ended/);
      } finally {
        connection.destroy();
      }
      expect((await exchange(server.url, get("/healthz", `Host: ${host}\r\n`))).status).toBe(200);
    });

    /**
     * Sends `requests` in turn on one kept-alive connection (a new one only where the server closed
     * the last), as a browser or a load balancer does, each body whole with its headers: the status
     * of each, up to the first error the client gets (its code).
     */
    async function onOneConnection(requests: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer }[]) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const answers: (number | string)[] = [];
      try {
        for (const { method = "POST", path, headers = {}, body } of requests) {
          answers.push(
            await new Promise<number | string>((resolve) => {
              const request = http.request(`${server.url}${path}`, { method, agent, headers: { ...headers, ...(body && { "Content-Length": String(body.length) }) } }, (response) => {
                response.resume();
                response.on("end", () => resolve(response.statusCode!));
                response.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
              });
              request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
              request.setTimeout(15_000, () => request.destroy(Object.assign(new Error("no answer"), { code: "timeout" })));
              request.end(body);
            }),
          );
          // A connection left waiting for a body is reset when the server's keep-alive times out: the rest would wait as long.
          if (typeof answers.at(-1) !== "number") break;
        }
      } finally {
        agent.destroy();
      }
      return answers;
    }

    const beacon = (bytes: number, contentType = "text/plain") => ({ path: "/monitoring", headers: { "Content-Type": contentType }, body: Buffer.alloc(bytes, 0x20) });
    const healthz = { method: "GET", path: "/healthz" };

    it("never resets a kept-alive connection after a route refused a body it did not read (the beacon's 413)", async () => {
      // Over the beacon's 64 KiB but within the host's 1 MiB: the route refuses it on its length alone.
      const round = [beacon(70 * 1024), beacon(160_000), beacon(100)];
      expect(await onOneConnection(Array.from({ length: 5 }, () => round).flat())).toEqual(Array.from({ length: 5 }, () => [413, 413, 400]).flat());
      expect(await onOneConnection([beacon(512 * 1024), healthz, beacon(512 * 1024), healthz])).toEqual([413, 200, 413, 200]);
    });

    it("never resets it after any other answer given before the body is read", async () => {
      const form = { "Content-Type": "application/x-www-form-urlencoded" };
      const refusedEarly = [
        // The beacon's 415: not JSON.
        beacon(200_000, "text/html"),
        // The API's 401: no token.
        { path: "/api/v1/workspaces/acme/projects/WEB/issues", headers: { "Content-Type": "application/json" }, body: Buffer.alloc(200_000, 0x20) },
        // Signed out, a form to a workspace's page is sent to sign in.
        { path: "/w/acme/p/WEB/issues/new", headers: form, body: Buffer.from(`title=${"x".repeat(200_000)}`) },
      ];
      const answers = await onOneConnection(refusedEarly.flatMap((request) => [request, healthz, request, healthz]));
      expect(answers).toEqual([415, 200, 415, 200, 401, 200, 401, 200, 302, 200, 302, 200]);
    });

    it("answers a body of unknown length with 411 and closes the connection", async () => {
      const connection = new RawConnection(server.url);
      try {
        connection.write(`POST / HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n`);
        const refused = await connection.response();
        expect(refused.status).toBe(411);
        expect(refused.headers.get("connection")).toBe("close");
        expect(await connection.ended).toBe("end");
      } finally {
        connection.destroy();
      }
    });
  });
});
