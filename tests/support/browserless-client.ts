/**
 * A browser without JavaScript, in a few lines: same-origin form posts, no redirect following,
 * and a cookie jar.
 */
export class BrowserlessClient {
  constructor(
    readonly baseUrl: string,
    private readonly cookies = new Map<string, string>(),
  ) {}

  /**
   * The same browser, its requests sent to another instance of Cairn, as a load balancer would:
   * one cookie jar, and form posts that are same-origin for the instance they reach.
   */
  at(baseUrl: string): BrowserlessClient {
    return new BrowserlessClient(baseUrl, this.cookies);
  }

  private remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const [name, ...value] = pair!.split("=");
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  async get(path: string): Promise<Response> {
    const response = await fetch(new URL(path, this.baseUrl), { redirect: "manual", headers: { cookie: this.cookieHeader() } });
    this.remember(response);
    return response;
  }

  /** `fields` as a URLSearchParams for repeated fields (`issueIds=1&issueIds=2`). */
  async post(path: string, fields: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams(fields),
      headers: { cookie: this.cookieHeader(), origin: this.baseUrl, ...headers },
    });
    this.remember(response);
    return response;
  }

  /** A form with files, as `<form enctype="multipart/form-data">` posts it (fetch writes the boundary). */
  async postMultipart(path: string, form: FormData): Promise<Response> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method: "POST",
      redirect: "manual",
      body: form,
      headers: { cookie: this.cookieHeader(), origin: this.baseUrl },
    });
    this.remember(response);
    return response;
  }
}

/** The password the HTTP tests sign up with. */
export const testPassword = "correct horse battery";

/** A new account, signed up over HTTP as a browser without JavaScript does: its browser, signed in. */
export async function signUpOverHttp(baseUrl: string, name: string, email: string): Promise<BrowserlessClient> {
  const client = new BrowserlessClient(baseUrl);
  const response = await client.post("/signup", { name, email, password: testPassword });
  if (response.status !== 302) throw new Error(`Signing up ${email} answered ${response.status}`);
  return client;
}
