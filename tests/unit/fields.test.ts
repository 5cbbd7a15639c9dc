/**
 * The text and number rules every form shares (issue 11, items 6, 7 and 12): what a single line and
 * a multi-line Markdown field refuse and say, the search text of a URL, the integers that reach SQL,
 * and the User-Agent header as it is stored.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  brokenCharacterMessage,
  idField,
  maxInteger,
  multiLineText,
  parsePositiveInteger,
  positiveIntegerField,
  queryText,
  singleLineMessage,
  singleLineText,
  storedUserAgent,
  textProblem,
} from "~/forms/fields.server";
import { storableText } from "~/forms/text-characters";

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("textProblem", () => {
  const control = (code: string) => `Remove the invisible control character (U+${code}).`;
  const direction = (code: string) => `Remove the invisible character that changes the direction of text (U+${code}).`;

  it("refuses NUL and every other control character, in both kinds of field", () => {
    for (const lines of ["single", "multiple"] as const) {
      expect(textProblem("a\u0000b", lines)).toBe(control("0000"));
      expect(textProblem("a\u001bb", lines)).toBe(control("001B"));
      expect(textProblem("a\u007fb", lines)).toBe(control("007F"));
      expect(textProblem("a\u009bb", lines)).toBe(control("009B"));
    }
  });

  it("takes tabs and line breaks in multi-line text only", () => {
    expect(textProblem("one\r\ntwo\n\tthree", "multiple")).toBeUndefined();
    for (const lineBreak of ["\n", "\r", "\u0085", "\u2028", "\u2029"]) expect(textProblem(`one${lineBreak}two`, "single")).toBe(singleLineMessage);
    expect(textProblem("a\tb", "single")).toBe(control("0009"));
  });

  it("refuses every embedding, override and isolate on a single line, and only the overrides in Markdown", () => {
    const embeddingsAndIsolates = ["\u202a", "\u202b", "\u202c", "\u2066", "\u2067", "\u2068", "\u2069"];
    for (const character of [...embeddingsAndIsolates, "\u202d", "\u202e"]) {
      const code = character.codePointAt(0)!.toString(16).toUpperCase();
      expect(textProblem(`txt${character}.exe`, "single")).toBe(direction(code));
    }
    for (const character of embeddingsAndIsolates) expect(textProblem(`שלום ${character}world${"\u2069"}`, "multiple")).toBeUndefined();
    expect(textProblem("const ok = true; \u202e // }", "multiple")).toBe(direction("202E"));
    expect(textProblem("a\u202db", "multiple")).toBe(direction("202D"));
  });

  it("keeps the direction marks, which right-to-left names need", () => {
    for (const mark of ["\u200e", "\u200f", "\u061c"]) {
      expect(textProblem(`שלום${mark} (1)`, "single")).toBeUndefined();
      expect(textProblem(`שלום${mark} (1)`, "multiple")).toBeUndefined();
    }
  });

  it("refuses lone surrogates and keeps whole characters outside the Basic Multilingual Plane", () => {
    for (const lines of ["single", "multiple"] as const) {
      expect(textProblem("a\ud800", lines)).toBe(brokenCharacterMessage);
      expect(textProblem("\udc00b", lines)).toBe(brokenCharacterMessage);
      expect(textProblem("bug 🐛 in 𝒜", lines)).toBeUndefined();
    }
  });

  it("takes ordinary text of any script", () => {
    for (const text of ["Login fails", "Ошибка входа", "ログインできない", "لا يمكن تسجيل الدخول", "café — “quotes” ‘and’ dashes…"]) {
      expect(textProblem(text, "single")).toBeUndefined();
      expect(textProblem(text, "multiple")).toBeUndefined();
    }
  });
});

describe("singleLineText", () => {
  const title = singleLineText({ empty: "Enter a title.", max: 5 });

  it("trims, then says only what is wrong with the characters when they are", () => {
    expect(title.parse("  Bug  ")).toBe("Bug");
    expect(messages(title, "a\u0000b")).toEqual(["Remove the invisible control character (U+0000)."]);
    expect(messages(title, "\u202egnp.exe and more")).toEqual(["Remove the invisible character that changes the direction of text (U+202E)."]);
  });

  it("asks for a value when nothing is left, and bounds the length", () => {
    expect(messages(title, "   ")).toEqual(["Enter a title."]);
    expect(messages(title, undefined)).toEqual(["Enter a title."]);
    expect(messages(title, "toolong")).toEqual(["Use at most 5 characters."]);
  });

  it("takes the field's own rules after it", () => {
    const key = singleLineText({ empty: "Enter a key." }).toUpperCase().regex(/^[A-Z]{2,6}$/, "Use 2 to 6 letters.");
    expect(key.parse(" web ")).toBe("WEB");
    expect(messages(key, "  ")).toEqual(["Enter a key."]);
    expect(messages(key, "W\u2066EB")).toEqual(["Remove the invisible character that changes the direction of text (U+2066)."]);
  });
});

describe("multiLineText", () => {
  it("keeps line breaks, refuses NUL and overrides, and bounds the length", () => {
    const body = multiLineText({ empty: "Write a comment.", max: 20 });
    expect(body.parse("  one\ntwo  ")).toBe("one\ntwo");
    expect(messages(body, " \n ")).toEqual(["Write a comment."]);
    expect(messages(body, "a\u0000b")).toEqual(["Remove the invisible control character (U+0000)."]);
    expect(messages(body, "x".repeat(21))).toEqual(["Use at most 20 characters."]);
    expect(messages(body, "a\u202eb")).toHaveLength(1);
  });

  it("keeps every line break as \\n, whichever way the browser sent it", () => {
    const description = multiLineText({ max: 10, trim: false });
    expect(description.parse("a\r\nb\rc\n\r\nd")).toBe("a\nb\nc\n\nd");
    // Counted once each.
    expect(description.parse("\r\n".repeat(10))).toBe("\n".repeat(10));
  });

  it("leaves leading spaces (an indented code block) when asked not to trim", () => {
    const description = multiLineText({ max: 50_000, trim: false });
    expect(description.parse("    code\n")).toBe("    code\n");
    expect(description.parse("")).toBe("");
    expect(messages(description, "x".repeat(50_001))).toEqual(["Use at most 50,000 characters."]);
  });
});

describe("queryText", () => {
  it("is the trimmed text, cut to its length, and says why when it cannot be used", () => {
    expect(queryText(new URLSearchParams("q=%20login%20"), "q", 200)).toEqual({ value: "login" });
    expect(queryText(new URLSearchParams(`q=${"x".repeat(300)}`), "q", 200)).toEqual({ value: "x".repeat(200) });
    expect(queryText(new URLSearchParams(), "q", 200)).toEqual({ value: "" });
    expect(queryText(new URLSearchParams("q=a%00b"), "q", 200)).toEqual({ value: "a\u0000b", problem: "Remove the invisible control character (U+0000)." });
    expect(queryText(new URLSearchParams("q=%E2%80%AEx"), "q", 200).problem).toBe("Remove the invisible character that changes the direction of text (U+202E).");
  });
});

describe("integers that reach SQL", () => {
  it("parsePositiveInteger takes plain positive integers up to PostgreSQL's integer", () => {
    expect(maxInteger).toBe(2 ** 31 - 1);
    expect(parsePositiveInteger("1")).toBe(1);
    expect(parsePositiveInteger("2147483647")).toBe(2147483647);
    for (const raw of ["2147483648", "9999999999", "99999999999999999999", "0", "-1", "1.5", "1e3", "0x10", " 7", "07", "", null, undefined]) {
      expect(parsePositiveInteger(raw), String(raw)).toBeNull();
    }
  });

  it("form integers are refused past 2^31 − 1, with the field's message", () => {
    const version = positiveIntegerField("Reload the issue and try again.");
    expect(version.parse("2147483647")).toBe(2147483647);
    for (const raw of ["2147483648", "99999999999999999999", "1e309", "-1", "0", "1.5", "NaN", "x"]) {
      expect(messages(version, raw), raw).toEqual(["Reload the issue and try again."]);
    }
    expect(messages(idField, "2147483648")).toEqual(["Choose an entry."]);
  });
});

describe("storedUserAgent", () => {
  const from = (userAgent?: string) => storedUserAgent(new Request("http://cairn.test/", userAgent === undefined ? {} : { headers: { "user-agent": userAgent } }));

  it("keeps an ordinary User-Agent as it is", () => {
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    expect(from(firefox)).toBe(firefox);
  });

  it("drops control characters, keeps at most 500 characters, and is null when nothing is left", () => {
    expect(from("Mozilla/5.0 \u0085\u009b[31mred\u00ff")).toBe("Mozilla/5.0 [31mredÿ");
    expect(from(`Mozilla/5.0 ${"x".repeat(1000)}`)).toHaveLength(500);
    expect(from("\u0085\u009b")).toBeNull();
    expect(from()).toBeNull();
  });
});

describe("storableText (what the browser's error reports send)", () => {
  const hostile = [
    "plain",
    "nul \u0000 and bell \u0007",
    "C1 \u0085\u009b controls",
    "override \u202e txt.exe",
    "isolate \u2066x\u2069 and embedding \u202a",
    "half \ud83d of an emoji",
    "line\nbreaks\r\nand\u2028separators",
    `${"x".repeat(999)}😀 cut between the halves of an emoji`,
  ];

  it.each(["single", "multiple"] as const)("gives %s-line text the server accepts, within the length", (lines) => {
    for (const text of hostile) {
      const stored = storableText(text, lines, 1000);
      expect(textProblem(stored, lines), JSON.stringify(text)).toBeUndefined();
      expect(stored.length).toBeLessThanOrEqual(1000);
    }
  });

  it("keeps what is allowed, and marks a cut", () => {
    expect(storableText("line\nbreak", "multiple", 100)).toBe("line\nbreak");
    expect(storableText("right\u200fto\u200eleft", "single", 100)).toBe("right\u200fto\u200eleft");
    expect(storableText("abcdef", "single", 4)).toBe("abc…");
    expect(storableText("ab😀c", "single", 4)).toBe("ab…");
  });
});
