/**
 * The server's memory while it takes files (issue 30): the production server (`npm start`'s flags)
 * at rest, while `--forms` forms of `--files` files of `--file-mib` MiB each are sent at once (to
 * the issues' attach form, as a browser without JavaScript sends them), after they are answered,
 * and while every file is downloaded again, `--forms` at a time. RSS is read from /proc every 20 ms.
 *
 *   node tests/bench/upload-memory.js [--dialect sqlite|postgres] [--root DIR] [--forms 4] [--files 10] [--file-mib 10]
 *
 * `--root` runs the server of another checkout (built), to compare two commits in one run. On
 * PostgreSQL the server of TEST_DATABASE_URL (or postgres://postgres@127.0.0.1:5432/postgres) gets
 * a database of its own, dropped afterwards.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createDemoDatabase, demoWorkspace, largestDemoProject, queryDemoDatabase, repoRoot, signIn, startDemoServer } from "../tools/demo-instance.js";

const { values } = parseArgs({
  options: {
    dialect: { type: "string", default: "sqlite" },
    root: { type: "string", default: repoRoot },
    forms: { type: "string", default: "4" },
    files: { type: "string", default: "10" },
    "file-mib": { type: "string", default: "10" },
  },
});
const forms = Number(values.forms);
const filesPerForm = Number(values.files);
const fileBytes = Number(values["file-mib"]) * 1024 * 1024;
const root = values.root;

/** @param {number} pid @param {"VmRSS" | "VmHWM" | "RssAnon" | "RssFile"} field */
function memoryMiB(pid, field) {
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kib) / 1024);
}

/** Samples the process's RSS every 20 ms; `peak()` is the largest since the last `reset()`. @param {number} pid */
function rssSampler(pid) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, memoryMiB(pid, "VmRSS"))), 20);
  return {
    peak: () => Math.max(peak, memoryMiB(pid, "VmRSS")),
    reset: () => (peak = memoryMiB(pid, "VmRSS")),
    stop: () => clearInterval(timer),
  };
}

/** One form of `filesPerForm` files of noise, to an issue's attach form. @param {string} url @param {string} cookie @param {string} issuePath @param {Buffer} bytes */
async function sendForm(url, cookie, issuePath, bytes) {
  const form = new FormData();
  form.append("intent", "attach");
  for (let i = 0; i < filesPerForm; i++) form.append("file", new Blob([new Uint8Array(bytes)]), `part-${i}.bin`);
  const response = await fetch(`${url}${issuePath}`, { method: "POST", body: form, redirect: "manual", headers: { cookie, origin: url } });
  await response.arrayBuffer();
  return response.status;
}

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const database = await createDemoDatabase(/** @type {"sqlite" | "postgres"} */ (values.dialect), adminUrl);
  const env = { ...database.env, ATTACHMENT_WORKSPACE_MAX_BYTES: String(10 * 1024 ** 3) };
  /** @type {Awaited<ReturnType<typeof startDemoServer>> | undefined} */
  let server;
  try {
    const seeded = spawnSync(process.execPath, ["server.js", "seed", "--workspace", demoWorkspace, "--issues", "20"], { cwd: root, env: { PATH: process.env.PATH, ...env }, encoding: "utf8" });
    if (seeded.status !== 0) throw new Error(`Seeding failed: ${seeded.stderr}`);
    const running = await startDemoServer(env, { root });
    server = running;
    const cookie = await signIn(running.url);
    const project = await largestDemoProject(env);
    const projectPath = `/w/${demoWorkspace}/p/${project.key}`;
    const rss = rssSampler(running.pid);
    await sleep(2000);
    const atRest = memoryMiB(running.pid, "VmRSS");
    const anonymousAtRest = memoryMiB(running.pid, "RssAnon");

    rss.reset();
    const bytes = randomBytes(fileBytes);
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: forms }, (_, i) => sendForm(running.url, cookie, `${projectPath}/issues/${i + 1}`, bytes)));
    const uploadSeconds = (performance.now() - started) / 1000;
    const uploadPeak = rss.peak();
    const afterUpload = memoryMiB(running.pid, "VmRSS");
    await sleep(5000);
    const afterUpload5s = memoryMiB(running.pid, "VmRSS");
    await sleep(10_000);
    const afterUpload15s = memoryMiB(running.pid, "VmRSS");
    const anonymous = { atRest: anonymousAtRest, afterUpload15s: memoryMiB(running.pid, "RssAnon") };

    const files = await queryDemoDatabase(env, "select id, filename from attachments order by id");
    rss.reset();
    const queue = [...files];
    await Promise.all(
      Array.from({ length: forms }, async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          const response = await fetch(`${running.url}/w/${demoWorkspace}/attachments/${file.id}/${file.filename}`, { headers: { cookie } });
          if (response.status !== 200 || (await response.arrayBuffer()).byteLength !== fileBytes) throw new Error(`Download of ${file.filename} failed: ${response.status}`);
        }
      }),
    );
    const downloadPeak = rss.peak();
    await sleep(5000);
    const afterDownload5s = memoryMiB(running.pid, "VmRSS");
    rss.stop();
    console.log(
      JSON.stringify({
        root,
        dialect: values.dialect,
        forms,
        filesPerForm,
        fileMiB: fileBytes / 1024 / 1024,
        statuses,
        uploadSeconds: Math.round(uploadSeconds * 10) / 10,
        rssMiB: { atRest, uploadPeak, afterUpload, afterUpload5s, afterUpload15s, downloadPeak, afterDownload5s, peakOfRun: memoryMiB(running.pid, "VmHWM") },
        anonymousRssMiB: anonymous,
      }),
    );
  } finally {
    await server?.stop();
    await database.drop();
  }
}

await main();
