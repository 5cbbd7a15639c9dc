const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "SQLITE_BUSY",
]);

/** True when the database could not be reached or is too busy: the request may succeed later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && unavailableCodes.has(code)) return true;
  // pg's own errors carry no code: a connection that died, or a query on one (such as the rollback
  // of a transaction whose connection died), or no connection to be had in time.
  return /Connection terminated|is not queryable|timeout exceeded when trying to connect/i.test(error.message);
}

/**
 * True when an insert or update broke a unique constraint (another row got there first); with
 * `on`, only when the constraint or index mentions that name.
 */
export function isUniqueViolation(error: unknown, on?: string): boolean {
  const { code, constraint, message } = (error ?? {}) as { code?: unknown; constraint?: unknown; message?: unknown };
  const unique = code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
  if (!unique || on === undefined) return unique;
  // PostgreSQL names the index (users_one_instance_admin); SQLite the column ("… failed: users.is_instance_admin").
  return String(constraint ?? message).includes(on);
}
