import type { Role } from "~/db/schema";

export { roles, type Role } from "~/db/schema";

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** docs/product.md, Roles: the least role that may do each thing in a workspace. */
const minimumRole = {
  "workspace:read": "viewer",
  "issues:write": "member",
  "views:share": "member",
  "comments:delete-any": "admin",
  "attachments:delete-any": "admin",
  "projects:manage": "admin",
  "labels:manage": "admin",
  "members:manage": "admin",
  "webhooks:manage": "admin",
  "views:manage-shared": "admin",
  "owners:manage": "owner",
  "workspace:manage": "owner",
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof minimumRole;

export function can(role: Role, permission: Permission): boolean {
  return rank[role] >= rank[minimumRole[permission]];
}

export const roleLabels: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", viewer: "Viewer" };
