import { describe, expect, it } from "vitest";
import { activeMention, insertMention, matchMembers } from "~/components/mention-query";

const end = (text: string) => activeMention(text, text.length);

describe("activeMention", () => {
  it("finds a mention at the start of the text", () => {
    expect(end("@ad")).toEqual({ start: 0, query: "ad" });
  });

  it("finds a mention after whitespace or an opening bracket or quote", () => {
    expect(end("hi @ada")).toEqual({ start: 3, query: "ada" });
    expect(end("line\n@ada")).toEqual({ start: 5, query: "ada" });
    expect(end("see (@grace")).toEqual({ start: 5, query: "grace" });
    expect(end(`"@jo-l`)).toEqual({ start: 1, query: "jo-l" });
  });

  it("is not the @ of an email address", () => {
    expect(end("ada@example")).toBeNull();
    expect(activeMention("mail ada@example.com", 11)).toBeNull();
  });

  it("lower-cases the query", () => {
    expect(end("@AdA")).toEqual({ start: 0, query: "ada" });
  });

  it("needs the caret at the end of the token", () => {
    expect(activeMention("@ada more", 9)).toBeNull();
    expect(end("@ada ")).toBeNull();
    expect(activeMention("@adalace", 4)).toBeNull();
    expect(activeMention("@ada next", 4)).toEqual({ start: 0, query: "ada" });
  });

  it("opens on a bare @", () => {
    expect(end("hello @")).toEqual({ start: 6, query: "" });
  });

  it("takes at most 39 characters", () => {
    expect(end(`@${"x".repeat(39)}`)).toEqual({ start: 0, query: "x".repeat(39) });
    expect(end(`@${"x".repeat(40)}`)).toBeNull();
  });

  it("is null for other characters before the caret", () => {
    expect(end("@ada.")).toBeNull();
    expect(end("@@ada")).toBeNull();
    expect(end("")).toBeNull();
  });
});

describe("matchMembers", () => {
  const members = [
    { handle: "grace", name: "Grace Hopper" },
    { handle: "alan-t", name: "Alan Turing" },
    { handle: "hopper2", name: "Another Person" },
    { handle: "ada", name: "Ada Lovelace" },
    { handle: "xhop", name: "Someone Else" },
    { handle: "hop", name: "Hop Lee" },
  ];

  it("ranks handle prefixes, then name words, then handle substrings, stably", () => {
    expect(matchMembers(members, "hop").map((m) => m.handle)).toEqual(["hopper2", "hop", "grace", "xhop"]);
  });

  it("ignores case", () => {
    expect(matchMembers(members, "LOVE").map((m) => m.handle)).toEqual(["ada"]);
  });

  it("returns everyone, in order, for an empty query, up to the limit", () => {
    expect(matchMembers(members, "").map((m) => m.handle)).toEqual(["grace", "alan-t", "hopper2", "ada", "xhop", "hop"]);
    expect(matchMembers(members, "", 2).map((m) => m.handle)).toEqual(["grace", "alan-t"]);
    expect(matchMembers([...members, ...members], "")).toHaveLength(6);
  });

  it("returns nothing when nothing matches", () => {
    expect(matchMembers(members, "zzz")).toEqual([]);
  });
});

describe("insertMention", () => {
  it("adds one space after the handle at the end of the text", () => {
    expect(insertMention("hi @ad", { start: 3, query: "ad" }, "ada")).toEqual({ text: "hi @ada ", caret: 8 });
  });

  it("adds a space before following text", () => {
    expect(insertMention("@gr, thanks", { start: 0, query: "gr" }, "grace")).toEqual({ text: "@grace , thanks", caret: 7 });
  });

  it("keeps the whitespace already there and puts the caret after it", () => {
    expect(insertMention("@a thanks", { start: 0, query: "a" }, "ada")).toEqual({ text: "@ada thanks", caret: 5 });
    expect(insertMention("@a\nnext", { start: 0, query: "a" }, "ada")).toEqual({ text: "@ada\nnext", caret: 5 });
  });

  it("inserts after a bare @", () => {
    expect(insertMention("(@)", { start: 1, query: "" }, "ada")).toEqual({ text: "(@ada )", caret: 6 });
  });
});
