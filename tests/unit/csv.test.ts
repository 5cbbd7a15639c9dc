import { describe, expect, it } from "vitest";
import { csvCell, csvRow, issuesCsvColumns, issuesCsvFileName } from "~/issues/issues-csv.server";

describe("CSV cells (RFC 4180)", () => {
  it("leaves plain values as they are", () => {
    expect(csvCell("Fix the login page")).toBe("Fix the login page");
    expect(csvCell("WEB-42")).toBe("WEB-42");
    expect(csvCell("2025-03-01")).toBe("2025-03-01");
    expect(csvCell("2025-03-01T12:00:00.000Z")).toBe("2025-03-01T12:00:00.000Z");
    expect(csvCell(42)).toBe("42");
    expect(csvCell("")).toBe("");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes a value that holds a comma, a quote, a CR or an LF, doubling the quotes", () => {
    expect(csvCell("Bug, urgent")).toBe('"Bug, urgent"');
    expect(csvCell('Say "hello"')).toBe('"Say ""hello"""');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell("line one\nline two")).toBe('"line one\nline two"');
    expect(csvCell("line one\r\nline two")).toBe('"line one\r\nline two"');
    expect(csvCell("carriage\rreturn")).toBe('"carriage\rreturn"');
  });

  it("does not quote for characters that are harmless in a field", () => {
    expect(csvCell("semi;colon")).toBe("semi;colon");
    expect(csvCell("it's fine")).toBe("it's fine");
    expect(csvCell("a\tb")).toBe("a\tb");
    expect(csvCell("1 + 1 = 2")).toBe("1 + 1 = 2");
  });

  it.each([
    ["=", "=1+1", "'=1+1"],
    ["+", "+1", "'+1"],
    ["-", "-2+3", "'-2+3"],
    ["@", "@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["tab", "\t=1+1", "'\t=1+1"],
  ])("neutralises a value that starts with %s (OWASP CSV injection)", (_name, value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("neutralises a value that starts with a carriage return, then quotes it", () => {
    expect(csvCell("\r=1+1")).toBe(`"'\r=1+1"`);
  });

  it("neutralises before quoting, so the quote goes inside", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","Click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(csvCell("=1,2")).toBe(`"'=1,2"`);
    expect(csvCell("-")).toBe("'-");
  });

  it("keeps unicode as it is", () => {
    expect(csvCell("Überprüfung der Größe")).toBe("Überprüfung der Größe");
    expect(csvCell("日本語のタイトル")).toBe("日本語のタイトル");
    expect(csvCell("Emoji 🚀 launch")).toBe("Emoji 🚀 launch");
    expect(csvCell("café, crème")).toBe('"café, crème"');
    expect(csvCell("−1 (a minus sign: not a hyphen)")).toBe("−1 (a minus sign: not a hyphen)");
    // UTF-8, as the response sends it.
    expect(new TextEncoder().encode(csvCell("é"))).toEqual(new Uint8Array([0xc3, 0xa9]));
  });
});

describe("CSV rows", () => {
  it("joins cells with commas and ends with CRLF", () => {
    expect(csvRow(["WEB-1", "Title, with comma", null, "=bad", 3])).toBe(`WEB-1,"Title, with comma",,'=bad,3\r\n`);
    expect(csvRow([])).toBe("\r\n");
  });

  it("has the header the export promises, and a file name from the project key", () => {
    expect(csvRow(issuesCsvColumns)).toBe("Key,Title,Status,Priority,Assignee,Reporter,Labels,Due date,Created,Updated,Closed\r\n");
    expect(issuesCsvFileName("WEB")).toBe("WEB-issues.csv");
  });
});
