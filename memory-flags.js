// V8's memory settings (docs/decisions/015-memory-budget.md): semi-spaces of at most 4 MiB, and an old
// generation that grows by at most 20 % past what the last full collection left. They take effect only
// when Node starts with them: server.js starts itself again with those it was not given, and the tests
// and the bench start the server with them.
export const memoryFlags = ["--max-semi-space-size=4", "--heap-growing-percent=20"];
