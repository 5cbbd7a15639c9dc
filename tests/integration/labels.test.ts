import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { labelsSchema } from "~/labels/forms.server";
import {
  createLabel,
  deleteLabel,
  duplicateLabelMessage,
  labelLimitMessage,
  listLabels,
  maxLabelsPerWorkspace,
  updateLabel,
} from "~/labels/labels.server";
import { labelChipClass, labelColors } from "~/labels/palette";
import { createTestDatabase, testDialects, type TestDatabase } from "../support/databases";
import { seedTestWorkspace } from "../support/workspaces";

const start = new Date("2025-03-01T12:00:00.000Z");
const later = new Date("2025-03-02T08:30:00.000Z");

describe("the label form's rules (docs/product.md, Rules for what is submitted)", () => {
  const parse = (fields: Record<string, unknown>) => labelsSchema.safeParse(fields);
  const messages = (fields: Record<string, unknown>) => parse(fields).error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("trims the name and accepts 1 to 32 characters and a palette color", () => {
    expect(parse({ intent: "create", name: "  Bug  ", color: "red" }).data).toEqual({ intent: "create", name: "Bug", color: "red" });
    expect(parse({ intent: "create", name: "x".repeat(32), color: "gray" }).success).toBe(true);
    expect(parse({ intent: "update", labelId: "7", name: "Bug", color: "pink" }).data).toEqual({ intent: "update", labelId: 7, name: "Bug", color: "pink" });
    expect(parse({ intent: "delete", labelId: "7" }).data).toEqual({ intent: "delete", labelId: 7 });
  });

  it("says how to fix a bad name or color", () => {
    expect(messages({ intent: "create", name: "   ", color: "red" })).toEqual([["name", "Enter a label name."]]);
    expect(messages({ intent: "create", color: "red" })).toEqual([["name", "Enter a label name."]]);
    expect(messages({ intent: "create", name: "x".repeat(33), color: "red" })).toEqual([["name", "Use at most 32 characters."]]);
    expect(messages({ intent: "create", name: "Bug", color: "chartreuse" })).toEqual([["color", "Choose a color."]]);
    expect(messages({ intent: "update", labelId: "abc", name: "Bug", color: "red" })?.[0]?.[0]).toBe("labelId");
    expect(parse({ intent: "rename", name: "Bug", color: "red" }).success).toBe(false);
  });

  it("gives every palette color its own chip classes, and an unknown one gray's", () => {
    const classes = labelColors.map(labelChipClass);
    expect(new Set(classes).size).toBe(labelColors.length);
    for (const [i, color] of labelColors.entries()) {
      expect(classes[i]).toBe(`bg-${color}-100 text-${color}-900 dark:bg-${color}-900 dark:text-${color}-100`);
    }
    expect(labelChipClass("chartreuse")).toBe(labelChipClass("gray"));
  });
});

describe.each(testDialects)("labels on %s", (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: Database;
  let workspaceId: number;
  let otherWorkspaceId: number;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    handle = database.open();
    await migrateToLatest(handle);
    db = handle.db;
    workspaceId = (await seedTestWorkspace(db, { slug: "acme", name: "Acme", at: start, members: { Olivia: "owner" } })).id;
    otherWorkspaceId = (await seedTestWorkspace(db, { slug: "other", name: "Other", at: start })).id;
  });

  afterEach(async () => {
    await handle.db.destroy();
    await database.drop();
  });

  async function create(name: string, color = "gray", workspace = workspaceId): Promise<number> {
    const created = await createLabel(db, { workspaceId: workspace, name, color, now: start });
    if (!("id" in created)) throw new Error(`could not create ${name}: ${created.message}`);
    return created.id;
  }

  const names = async (workspace = workspaceId) => (await listLabels(db, workspace)).map((label) => label.name);

  it("creates labels and lists them by name, ignoring case", async () => {
    const bug = await create("bug", "red");
    const alpha = await create("Alpha", "blue");
    await create("docs", "teal");
    await create("Zeta");
    expect(bug).toBeGreaterThan(0);
    expect(await names()).toEqual(["Alpha", "bug", "docs", "Zeta"]);
    expect((await listLabels(db, workspaceId))[0]).toEqual({ id: alpha, name: "Alpha", color: "blue", updated_at: start.toISOString() });
    expect(await names(otherWorkspaceId)).toEqual([]);
  });

  it("renames and recolors a label", async () => {
    const bug = await create("Bug", "red");
    expect(await updateLabel(db, { workspaceId, labelId: bug, name: "Defect", color: "orange", now: later })).toEqual({ id: bug });
    expect(await listLabels(db, workspaceId)).toEqual([{ id: bug, name: "Defect", color: "orange", updated_at: later.toISOString() }]);
    // Changing only the case of its own name is no clash with itself.
    expect(await updateLabel(db, { workspaceId, labelId: bug, name: "DEFECT", color: "orange", now: later })).toEqual({ id: bug });
    expect(await names()).toEqual(["DEFECT"]);
  });

  it("deletes a label and, with it, its place on issues", async () => {
    const bug = await create("Bug");
    const docs = await create("Docs");
    const now = start.toISOString();
    const project = await db
      .insertInto("projects")
      .values({ workspace_id: workspaceId, key: "WEB", name: "Web", created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    const issue = await db
      .insertInto("issues")
      .values({ project_id: project.id, number: 1, title: "Broken", status: "todo", created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("issue_labels").values([{ issue_id: issue.id, label_id: bug }, { issue_id: issue.id, label_id: docs }]).execute();

    expect(await deleteLabel(db, workspaceId, bug)).toBe(true);
    expect(await names()).toEqual(["Docs"]);
    const left = await db.selectFrom("issue_labels").select("label_id").where("issue_id", "=", issue.id).execute();
    expect(left).toEqual([{ label_id: docs }]);
    expect(await deleteLabel(db, workspaceId, bug)).toBe(false);
  });

  it("refuses a duplicate name, ignoring case, on create", async () => {
    await create("Bug");
    for (const name of ["Bug", "bug", "BUG"]) {
      expect(await createLabel(db, { workspaceId, name, color: "red", now: later })).toEqual({ field: "name", message: duplicateLabelMessage });
    }
    expect(await names()).toEqual(["Bug"]);
    // Names are unique per workspace only.
    expect(await createLabel(db, { workspaceId: otherWorkspaceId, name: "bug", color: "red", now: later })).toHaveProperty("id");
  });

  it("refuses a duplicate name, ignoring case, on rename", async () => {
    await create("Bug", "red");
    const docs = await create("Docs", "teal");
    expect(await updateLabel(db, { workspaceId, labelId: docs, name: "bUG", color: "green", now: later })).toEqual({
      field: "name",
      message: duplicateLabelMessage,
    });
    expect(await listLabels(db, workspaceId)).toEqual([
      expect.objectContaining({ name: "Bug", color: "red" }),
      { id: docs, name: "Docs", color: "teal", updated_at: start.toISOString() },
    ]);
  });

  it(`allows at most ${maxLabelsPerWorkspace} labels in a workspace`, async () => {
    for (let i = 1; i <= maxLabelsPerWorkspace; i++) await create(`Label ${i}`);
    const refused = await createLabel(db, { workspaceId, name: "One too many", color: "red", now: later });
    expect(refused).toEqual({ message: labelLimitMessage });
    expect("field" in refused && refused.field).toBeFalsy();
    expect(await listLabels(db, workspaceId)).toHaveLength(maxLabelsPerWorkspace);
    // The limit is per workspace, and deleting one makes room again.
    expect(await createLabel(db, { workspaceId: otherWorkspaceId, name: "One too many", color: "red", now: later })).toHaveProperty("id");
    const [first] = await listLabels(db, workspaceId);
    expect(await deleteLabel(db, workspaceId, first!.id)).toBe(true);
    expect(await createLabel(db, { workspaceId, name: "One too many", color: "red", now: later })).toHaveProperty("id");
    expect(await listLabels(db, workspaceId)).toHaveLength(maxLabelsPerWorkspace);
  });

  it("lets only one of two simultaneous creations take the last place", async () => {
    for (let i = 1; i < maxLabelsPerWorkspace; i++) await create(`Label ${i}`);
    const both = await Promise.all([
      createLabel(db, { workspaceId, name: "First", color: "red", now: later }),
      createLabel(db, { workspaceId, name: "Second", color: "red", now: later }),
    ]);
    expect(both.filter((result) => "id" in result)).toHaveLength(1);
    expect(both.filter((result) => !("id" in result))).toEqual([{ message: labelLimitMessage }]);
    expect(await listLabels(db, workspaceId)).toHaveLength(maxLabelsPerWorkspace);
  });

  it("does not update or delete another workspace's label", async () => {
    const theirs = await create("Theirs", "purple", otherWorkspaceId);
    expect(await updateLabel(db, { workspaceId, labelId: theirs, name: "Mine now", color: "red", now: later })).toBeUndefined();
    expect(await deleteLabel(db, workspaceId, theirs)).toBe(false);
    expect(await listLabels(db, otherWorkspaceId)).toEqual([{ id: theirs, name: "Theirs", color: "purple", updated_at: start.toISOString() }]);
    expect(await names()).toEqual([]);
  });

  it("reports a label that does not exist", async () => {
    expect(await updateLabel(db, { workspaceId, labelId: 999_999, name: "Ghost", color: "red", now: later })).toBeUndefined();
    expect(await deleteLabel(db, workspaceId, 999_999)).toBe(false);
  });
});
