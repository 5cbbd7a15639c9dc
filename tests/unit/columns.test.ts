import { describe, expect, it } from "vitest";
import { fromColumns, toColumns } from "~/issues/columns";

describe("rows as columns", () => {
  it("keeps every row, field and value, shared objects shared", () => {
    const ada = { id: 1, name: "Ada" };
    const rows = [
      { id: 1, title: "One", assignee: ada, labels: [] as string[], due: null as string | null },
      { id: 2, title: "Two", assignee: ada, labels: ["bug"], due: "2030-01-31" },
    ];
    const columns = toColumns(rows);
    expect(columns).toEqual({ id: [1, 2], title: ["One", "Two"], assignee: [ada, ada], labels: [[], ["bug"]], due: [null, "2030-01-31"] });
    const back = fromColumns(columns);
    expect(back).toEqual(rows);
    expect(back[0]!.assignee).toBe(back[1]!.assignee);
  });

  it("has no rows for none", () => {
    expect(fromColumns(toColumns([] as { id: number }[]))).toEqual([]);
  });
});
