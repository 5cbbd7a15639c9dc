/** Liveness: the process is up and serving HTTP. */
export function loader() {
  return new Response("ok\n", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}
