import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sqliteFileName } from "./database.server";

/**
 * Copies the embedded database while Cairn keeps running (SQLite's online backup API: a consistent
 * snapshot, even with writers). PostgreSQL is backed up with its own tools (pg_dump).
 */
export async function backupSqlite(dataDir: string, destination: string): Promise<{ pages: number }> {
  const source = new SQLite(path.join(dataDir, sqliteFileName), { readonly: true, fileMustExist: true });
  try {
    mkdirSync(path.dirname(path.resolve(destination)), { recursive: true });
    const { totalPages } = await source.backup(destination);
    return { pages: totalPages };
  } finally {
    source.close();
  }
}

export function defaultBackupFile(dataDir: string, now: Date): string {
  return path.join(dataDir, "backups", `cairn-${now.toISOString().replace(/[:.]/g, "-")}.sqlite`);
}
