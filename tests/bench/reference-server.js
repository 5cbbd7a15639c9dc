// The bench's fixed reference: a bare Node HTTP server that answers every request with one page's
// HTML, gzipped once at start-up. What a page costs against it is what Cairn costs on this machine,
// whatever the floor (a real Cairn page) does. `node reference-server.js FILE` prints its port.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";

const body = gzipSync(readFileSync(/** @type {string} */ (process.argv[2])));
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-encoding": "gzip", "content-length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : "");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
