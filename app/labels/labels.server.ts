import { z } from "zod";
import type { Database } from "~/db/database.server";
import { isUniqueViolation } from "~/db/errors.server";
import { singleLineText } from "~/forms/fields.server";
import { lockWorkspace } from "~/workspaces/members.server";
import { knownWorkspaceContext, type LabelSummary } from "~/workspaces/workspaces.server";
import { labelColors } from "./palette";

/** docs/product.md, Limits. */
export const maxLabelsPerWorkspace = 100;
export const maxLabelsPerIssue = 10;

export const labelNameField = singleLineText({ empty: "Enter a label name.", max: 32 });

export const labelColorField = z.enum(labelColors, { error: "Choose a color." });

export const duplicateLabelMessage = "A label with this name already exists.";
export const labelLimitMessage = `A workspace can have at most ${maxLabelsPerWorkspace} labels. Delete one to make room.`;

/** Why a label could not be saved: a name already taken (ignoring case), or the workspace is full. */
export type LabelProblem = { field: "name"; message: string } | { field?: undefined; message: string };

const duplicateName = { field: "name", message: duplicateLabelMessage } as const;

/** The unique index on (workspace_id, lower(name)) is the judge: two concurrent saves cannot both pass a lookup. */
const isDuplicateName = (error: unknown) => isUniqueViolation(error, "labels_workspace_name");

/** A workspace's labels, by name (from this request's workspace lookup when it made one). */
export function listLabels(db: Database, workspaceId: number): Promise<LabelSummary[]> {
  const known = knownWorkspaceContext(workspaceId);
  if (known) return Promise.resolve(known.labels);
  return db
    .selectFrom("labels")
    .select(["id", "name", "color", "updated_at"])
    .where("workspace_id", "=", workspaceId)
    .orderBy((eb) => eb.fn("lower", ["name"]))
    .orderBy("id")
    .execute();
}

export async function createLabel(
  db: Database,
  label: { workspaceId: number; name: string; color: string; now: Date },
): Promise<{ id: number } | LabelProblem> {
  const now = label.now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
      // So that two creations cannot both see room for one more label.
      await lockWorkspace(trx, label.workspaceId);
      const { count } = await trx
        .selectFrom("labels")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("workspace_id", "=", label.workspaceId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxLabelsPerWorkspace) return { message: labelLimitMessage };
      return trx
        .insertInto("labels")
        .values({ workspace_id: label.workspaceId, name: label.name, color: label.color, created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
    });
  } catch (error) {
    if (isDuplicateName(error)) return duplicateName;
    throw error;
  }
}

/** Renames or recolors a label; undefined when the workspace has no label with that id. */
export async function updateLabel(
  db: Database,
  label: { workspaceId: number; labelId: number; name: string; color: string; now: Date },
): Promise<{ id: number } | LabelProblem | undefined> {
  try {
    return await db
      .updateTable("labels")
      .set({ name: label.name, color: label.color, updated_at: label.now.toISOString() })
      .where("id", "=", label.labelId)
      .where("workspace_id", "=", label.workspaceId)
      .returning("id")
      .executeTakeFirst();
  } catch (error) {
    if (isDuplicateName(error)) return duplicateName;
    throw error;
  }
}

/** Deletes a label, and through the foreign key its place on every issue; false when there was no such label. */
export async function deleteLabel(db: Database, workspaceId: number, labelId: number): Promise<boolean> {
  const result = await db.deleteFrom("labels").where("id", "=", labelId).where("workspace_id", "=", workspaceId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
