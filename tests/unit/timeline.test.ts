/**
 * The issue timeline's lines (DESIGN.md §3, Issue): consecutive changes by one person within five
 * minutes read as one line; comments, other people and later changes start new ones.
 */
import { describe, expect, it } from "vitest";
import { type Change, describeChanges, groupTimeline, namedChange } from "~/issues/timeline";

const start = Date.parse("2026-03-01T10:00:00Z");
const minutes = (n: number) => new Date(start + n * 60_000).toISOString();

let ids = 0;
function change(actorId: number | null, minute: number, kind: string, from: string | null = null, to: string | null = null): Change {
  return { type: "activity", id: ++ids, at: minutes(minute), actorId, actorName: actorId === null ? null : `Person ${actorId}`, kind, from, to };
}
const comment = (minute: number) => ({ type: "comment" as const, id: ++ids, at: minutes(minute) });

/** Each line as its kinds, to compare shapes. */
const shape = (items: ReturnType<typeof groupTimeline>) => items.map((item) => (item.type === "changes" ? item.changes.map((c) => c.kind) : "comment"));

describe("groupTimeline", () => {
  it("joins one person's consecutive changes within five minutes of the first", () => {
    const items = groupTimeline([change(1, 0, "status", "Todo", "Done"), change(1, 2, "priority", "Low", "High"), change(1, 5, "due_date", null, "2026-03-15")]);
    expect(shape(items)).toEqual([["status", "priority", "due_date"]]);
    expect(items[0]).toMatchObject({ type: "changes", actorId: 1, actorName: "Person 1", at: minutes(0) });
  });

  it("starts a new line after five minutes, for another person, or after a comment", () => {
    const items = groupTimeline([
      change(1, 0, "status", "Todo", "Done"),
      change(1, 6, "priority", "Low", "High"),
      change(2, 7, "title", "A", "B"),
      comment(8),
      change(2, 9, "labels", null, "Bug"),
    ]);
    expect(shape(items)).toEqual([["status"], ["priority"], ["title"], "comment", ["labels"]]);
  });

  it("keeps the creation, deleted comments and mentions elsewhere on lines of their own", () => {
    const items = groupTimeline([change(1, 0, "created"), change(1, 1, "status", "Backlog", "Todo"), change(1, 2, "comment_deleted"), change(1, 3, "priority", "Low", "High")]);
    expect(shape(items)).toEqual([["created"], ["status"], ["comment_deleted"], ["priority"]]);
    const mentions = groupTimeline([change(1, 0, "referenced", null, "WEB-1"), change(1, 1, "referenced", null, "WEB-2"), change(1, 2, "status", "Todo", "Done")]);
    expect(shape(mentions)).toEqual([["referenced"], ["referenced"], ["status"]]);
  });

  it("never joins changes whose person is gone (no id to tell them apart)", () => {
    expect(shape(groupTimeline([change(null, 0, "status", "Todo", "Done"), change(null, 1, "priority", "Low", "High")]))).toEqual([["status"], ["priority"]]);
  });

  it("reads a field changed twice in one line as one change, from its first value to its last", () => {
    const [line] = groupTimeline([change(1, 0, "status", "Backlog", "Todo"), change(1, 1, "priority", "Low", "High"), change(1, 2, "status", "Todo", "Done")]);
    expect(line?.type === "changes" && describeChanges(line.changes)).toBe("changed the status from Backlog to Done and the priority from Low to High");
  });
});

describe("describeChanges", () => {
  it("says each kind of change", () => {
    const said = (kind: string, from: string | null, to: string | null) => describeChanges([change(1, 0, kind, from, to)]);
    expect(said("created", null, null)).toBe("created the issue");
    expect(said("title", "Old", "New")).toBe("renamed it to “New”");
    expect(said("description", null, null)).toBe("changed the description");
    expect(said("status", "Todo", "Done")).toBe("changed the status from Todo to Done");
    expect(said("priority", "No priority", "Urgent")).toBe("changed the priority from No priority to Urgent");
    expect(said("assignee", null, "Ada")).toBe("assigned it to Ada");
    expect(said("assignee", "Ada", null)).toBe("unassigned it");
    expect(said("labels", null, "Bug, Docs")).toBe("set the labels to Bug, Docs");
    expect(said("labels", "Bug", null)).toBe("removed the labels");
    expect(said("due_date", null, "2026-03-15")).toBe("set the due date to 2026-03-15");
    expect(said("due_date", "2026-03-15", null)).toBe("removed the due date");
    expect(said("comment_deleted", null, null)).toBe("deleted a comment");
    expect(said("referenced", null, "WEB-7")).toBe("mentioned it in WEB-7");
  });

  it("says a shared verb once and joins the last clause with “and”", () => {
    expect(
      describeChanges([
        change(1, 0, "status", "Todo", "Done"),
        change(1, 0, "priority", "Low", "High"),
        change(1, 0, "assignee", null, "Ada"),
        change(1, 0, "due_date", null, "2026-03-15"),
      ]),
    ).toBe("changed the status from Todo to Done and the priority from Low to High, assigned it to Ada and set the due date to 2026-03-15");
  });
});

describe("namedChange", () => {
  const labels = new Map([
    [3, "Bug"],
    [7, "Frontend"],
  ]);
  const named = (kind: string, from: string | null, to: string | null) => {
    const { from: f, to: t } = namedChange(change(1, 0, kind, from, to), labels);
    return [f, t];
  };

  it("names status and priority keys and label ids, sorted, a deleted label as such", () => {
    expect(named("status", "in_progress", "done")).toEqual(["In progress", "Done"]);
    expect(named("priority", "none", "urgent")).toEqual(["No priority", "Urgent"]);
    expect(named("labels", "[7,3]", "[3,9]")).toEqual(["Bug, Frontend", "Bug, a deleted label"]);
    expect(named("labels", "[8,9]", null)).toEqual(["2 deleted labels", null]);
    expect(named("labels", "[]", "[3]")).toEqual([null, "Bug"]);
  });

  it("keeps values that are no key or id (rows written before they were) as written", () => {
    expect(named("labels", "Bug, [WIP]", "[WIP]")).toEqual(["Bug, [WIP]", "[WIP]"]);
    expect(named("status", "Someday", null)).toEqual(["Someday", null]);
    expect(named("title", "Old", "New")).toEqual(["Old", "New"]);
  });
});

describe("links in the timeline", () => {
  const said = (kind: string, from: string | null, to: string | null) => describeChanges([change(1, 0, kind, from, to)]);

  it("says parents, sub-issues and relations with the other issue's key", () => {
    expect(said("parent", null, "WEB-12")).toBe("set parent WEB-12");
    expect(said("parent", "WEB-12", "API-3")).toBe("changed parent from WEB-12 to API-3");
    expect(said("parent", "WEB-12", null)).toBe("removed parent WEB-12");
    expect(said("sub_issue", null, "WEB-13")).toBe("added sub-issue WEB-13");
    expect(said("sub_issue", "WEB-13", null)).toBe("removed sub-issue WEB-13");
    expect(said("relation", null, "blocks WEB-3")).toBe("marked it as blocking WEB-3");
    expect(said("relation", null, "blocked_by WEB-9")).toBe("marked it as blocked by WEB-9");
    expect(said("relation", null, "relates_to WEB-4")).toBe("marked it as related to WEB-4");
    expect(said("relation", null, "duplicate_of WEB-1")).toBe("marked it as a duplicate of WEB-1");
    expect(said("relation", null, "duplicated_by WEB-2")).toBe("marked it as duplicated by WEB-2");
    expect(said("relation", "blocked_by WEB-9", null)).toBe("removed “Blocked by WEB-9”");
  });

  it("says every link changed in one line, where a field changed twice reads as one change", () => {
    const [line] = groupTimeline([change(1, 0, "sub_issue", null, "WEB-13"), change(1, 1, "sub_issue", null, "WEB-14"), change(1, 2, "relation", null, "blocks WEB-3")]);
    expect(line?.type === "changes" && describeChanges(line.changes)).toBe("added sub-issue WEB-13 and sub-issue WEB-14 and marked it as blocking WEB-3");
    const [two] = groupTimeline([change(1, 0, "relation", null, "blocks WEB-3"), change(1, 1, "relation", null, "relates_to WEB-4")]);
    expect(two?.type === "changes" && describeChanges(two.changes)).toBe("marked it as blocking WEB-3 and as related to WEB-4");
  });

  it("reads a duplicate closed as canceled as one line", () => {
    const [line] = groupTimeline([change(1, 0, "relation", null, "duplicate_of WEB-1"), namedChange(change(1, 0, "status", "todo", "canceled"), new Map())]);
    expect(line?.type === "changes" && describeChanges(line.changes)).toBe("marked it as a duplicate of WEB-1 and changed the status from Todo to Canceled");
  });
});
