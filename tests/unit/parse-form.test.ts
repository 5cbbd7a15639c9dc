/**
 * parseForm, the one way a route reads a form (issue 11, item 8): a body that is not a form is a
 * 415 (or a 400 when a form body is broken) with the message the route's boundary shows, never an
 * unexpected error.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseForm, unreadableFormMessage } from "~/forms/parse-form.server";

const schema = z.object({ name: z.string() });
const post = (body: BodyInit | null, contentType?: string) =>
  new Request("http://cairn.test/form", { method: "POST", body, headers: contentType ? { "content-type": contentType } : {} });

/** What parseForm throws for the request: a route error response's status, message and title. */
async function refusal(request: Request) {
  const thrown: unknown = await parseForm(request, schema).then(
    () => undefined,
    (error: unknown) => error,
  );
  const response = thrown as { type?: string; data?: unknown; init?: ResponseInit };
  expect(response?.type).toBe("DataWithResponseInit");
  return { status: response.init?.status, statusText: response.init?.statusText, message: response.data };
}

describe("parseForm", () => {
  it("reads urlencoded and multipart forms, whatever the parameters of their content type", async () => {
    for (const request of [
      post("name=Ada", "application/x-www-form-urlencoded"),
      post("name=Ada", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"),
      post(new URLSearchParams({ name: "Ada" })),
      post((() => { const form = new FormData(); form.set("name", "Ada"); return form; })()),
    ]) {
      const submission = await parseForm(request, schema);
      expect(submission.status).toBe("success");
      expect(submission.status === "success" && submission.value).toEqual({ name: "Ada" });
    }
  });

  it("decodes a urlencoded body as browsers encode it", async () => {
    for (const [body, name] of [
      ["name=caf%C3%A9+%F0%9F%90%9B", "café 🐛"],
      ["name=caf\u00e9", "café"],
      ["name=100%", "100%"],
      ["name=%zz%4", "%zz%4"],
    ]) {
      const submission = await parseForm(post(body!, "application/x-www-form-urlencoded"), schema);
      expect(submission.status === "success" && submission.value.name, body).toBe(name);
    }
  });

  it.each([
    ["an invalid UTF-8 byte", "name=%ff"],
    ["half of a surrogate pair", "name=a%ED%A0%80"],
    ["an overlong encoding", "name=%C0%AE"],
  ])("refuses a urlencoded body with %s with 400, instead of saving U+FFFD", async (_what, body) => {
    expect(await refusal(post(body, "application/x-www-form-urlencoded"))).toEqual({ status: 400, statusText: "Form not readable", message: unreadableFormMessage });
  });

  it.each([
    ["text/plain", post("name=Ada", "text/plain")],
    ["application/json", post('{"name":"Ada"}', "application/json")],
    ["no content type", post("name=Ada")],
    ["no body", post(null)],
  ])("refuses %s with 415", async (_what, request) => {
    expect(await refusal(request)).toEqual({ status: 415, statusText: "Form not readable", message: unreadableFormMessage });
  });

  it.each([
    ["multipart without a boundary", post("--x\r\n", "multipart/form-data")],
    ["multipart with a broken body", post("--x\r\ngarbage", "multipart/form-data; boundary=x")],
  ])("refuses %s with 400", async (_what, request) => {
    expect(await refusal(request)).toEqual({ status: 400, statusText: "Form not readable", message: unreadableFormMessage });
  });
});
