import type { Generated } from "kysely";

/**
 * The tables as the application sees them. Timestamps are ISO-8601 strings in UTC on both databases
 * (PostgreSQL's timestamptz is read back as such); flags are 0/1 integers.
 */
export interface DB {
  users: UsersTable;
  monitoring_events: MonitoringEventsTable;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  is_instance_admin: number;
  last_workspace_id: number | null;
  created_at: string;
  updated_at: string;
}

export type MonitoringEventKind = "server_error" | "client_error" | "web_vital";

export interface MonitoringEventsTable {
  id: Generated<number>;
  kind: MonitoringEventKind;
  /** Groups errors: the server's digest, or a hash of message and route for client errors. */
  digest: string | null;
  route: string | null;
  url: string | null;
  method: string | null;
  message: string | null;
  stack: string | null;
  user_id: number | null;
  user_agent: string | null;
  request_id: string | null;
  name: string | null;
  value: number | null;
  rating: string | null;
  count: number;
  first_seen: string;
  last_seen: string;
}
