import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { ConfigError, loadConfig } from "~/config/env.server";
import { resolveSessionSecret } from "~/config/session-secret.server";
import { deleteUnclaimedAttachments } from "~/attachments/attachments.server";
import { backupSqlite, defaultBackupFile } from "~/db/backup.server";
import { openDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { withErrorDigests } from "~/errors/route-errors.server";
import { createLogger } from "~/logging/logger.server";
import { type JobRunner, startJobRunner } from "~/jobs/job-runner.server";
import { createMailer } from "~/mail/mailer.server";
import { createWebhookDispatcher, pruneWebhookDeliveries } from "~/webhooks/dispatcher.server";
import { createTelemetry } from "~/monitoring/otlp-export.server";
import { demoPassword, parseSeedArguments, seedWorkspace } from "~/seed/seed.server";
import { createHostApp } from "./app.server";
import { createLifecycle } from "~/context/lifecycle.server";
import { stopGracefullyOnSignals } from "./shutdown.server";

async function loadBuild(): Promise<ServerBuild> {
  return withErrorDigests(await import("virtual:react-router/server-build"));
}

/** Reads the configuration, or stops with the one line that says what is wrong. */
function configOrExit() {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** `npm run backup [-- FILE]`: an online copy of the SQLite database. */
export async function backup(destination: string | undefined) {
  const config = configOrExit();
  if (config.databaseUrl) {
    console.error("DATABASE_URL is set: back up PostgreSQL with pg_dump (see the README).");
    process.exit(1);
  }
  const file = destination ?? defaultBackupFile(config.dataDir, new Date());
  const { pages } = await backupSqlite(config.dataDir, file);
  console.log(`Backed up ${pages} pages to ${file}`);
}

/**
 * `npm run seed -- --workspace demo --issues 10000`: a realistic workspace to try Cairn with or to
 * benchmark it, in the database the server would use (migrated first).
 */
export async function seed(args: string[]) {
  const config = configOrExit();
  const options = parseSeedArguments(args);
  if ("error" in options) {
    console.error(options.error);
    process.exit(1);
  }
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const started = performance.now();
    const seeded = await seedWorkspace(database, { slug: options.slug, issueCount: options.issueCount, now: new Date() });
    if ("refused" in seeded) {
      console.error(seeded.refused);
      process.exitCode = 1;
      return;
    }
    const seconds = (performance.now() - started) / 1000;
    const count = (n: number) => n.toLocaleString("en");
    console.log(
      `Seeded workspace "${options.slug}" on ${database.dialect}: ${seeded.members} members, ${seeded.projects.length} projects ` +
        `(${seeded.projects.map((p) => `${p.key} ${count(p.issues)}`).join(", ")}), ${seeded.labels} labels, ${count(seeded.issues)} issues, ` +
        `${count(seeded.comments)} comments, ${count(seeded.activities)} activities in ${seconds.toFixed(1)} s ` +
        `(${((seconds * 10_000) / seeded.issues).toFixed(1)} s per 10,000 issues).`,
    );
    console.log(`Sign in as ${seeded.ownerEmail} with the password ${demoPassword}; every seeded account has it.`);
    console.log(
      seeded.ownerIsInstanceAdmin
        ? `${seeded.ownerEmail} owns the workspace and, as the first account of this instance, is its instance admin (/admin/monitoring).`
        : `${seeded.ownerEmail} owns the workspace but is not this instance's admin: the instance had accounts already, and /admin/monitoring stays with its first account.`,
    );
  } finally {
    await database.db.destroy();
  }
}

/** The address to open for a listening address: every interface is reachable as localhost. */
function listeningUrl(host: string, port: number): string {
  const name = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * Starts Cairn: reads the configuration, opens the database, listens (only health checks answer
 * until the migrations are done) and stops gracefully on SIGTERM/SIGINT.
 */
export async function start(assets: { vite: ViteDevServer } | { clientDir: string }) {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  for (const warning of config.warnings) logger.warn(warning);
  const lifecycle = createLifecycle();
  const telemetry = await createTelemetry(config.otlp, logger);

  try {
    const database = openDatabase({
      ...config,
      onConnectionError: (error) => logger.warn({ err: error }, "PostgreSQL connection lost"),
      onUnkeptStatements: (error) => logger.warn({ err: error }, "PostgreSQL does not keep prepared statements (a pooler in transaction mode?): each query is parsed anew"),
    });
    // Known once the migrations are done (on PostgreSQL it is kept in the database); until then only
    // the health checks answer, and they sign no cookie.
    let sessionSecret: string | undefined;
    const secretOnceReady = () => {
      if (sessionSecret === undefined) throw new Error("The session secret was needed before start-up resolved it.");
      return sessionSecret;
    };
    // React Router derives its route table from the build each time it gets a function: handed the
    // object, it does so once (issue 13: 12 % of a small page's time).
    const build = "vite" in assets ? loadBuild : await loadBuild();

    const mailer = config.mail ? createMailer(config.mail) : undefined;
    let jobRunner: JobRunner | undefined;

    const app = createHostApp({ config, logger, lifecycle, telemetry, database, sessionSecret: secretOnceReady, build, assets });
    const server = app.listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
    stopGracefullyOnSignals({
      server,
      lifecycle,
      logger,
      drainSeconds: config.drainSeconds,
      release: async () => {
        // The jobs being run finish (a mail half sent would be sent again by another instance).
        await jobRunner?.stop();
        mailer?.close();
        // Errors reported while draining reach the monitoring service before the process exits.
        await telemetry.shutdown();
        await database.db.destroy();
      },
    });

    const applied = await migrateToLatest(database);
    sessionSecret = await resolveSessionSecret({ configured: config.sessionSecret, dataDir: config.dataDir, database, logger });
    // The outboxes run once the schema is there, each kind in a lane of its own (decision record 025):
    // mail only when SMTP is configured; webhook deliveries have an outbox of their own (decision record 020).
    jobRunner = startJobRunner({
      database,
      logger,
      leaseMs: config.jobLeaseMs,
      handlers: mailer ? { mail: (mail) => mailer.send(mail) } : {},
      lanes: (instance) => [createWebhookDispatcher({ database, logger, instance, ...config.webhooks, publicUrl: config.publicUrl })],
      cleanUps: [(now) => pruneWebhookDeliveries(database.db, now), (now) => deleteUnclaimedAttachments(database.db, now)],
    });
    lifecycle.state = "ready";
    const url = listeningUrl(config.host, config.port);
    logger.info({ url, database: database.dialect, migrationsApplied: applied }, `Cairn is listening on ${url}`);
    // A person who ran `npm start` in a terminal reads the address to open, not only a JSON line.
    if (process.stdout.isTTY) console.log(`Cairn is listening on ${url}`);
  } catch (error) {
    logger.fatal({ err: error }, "Cairn could not start");
    process.exit(1);
  }
}
