import { describe, expect, it } from "vitest";
import { forbiddenAddressReason, resolveWebhookTarget } from "~/webhooks/address-guard.server";
import { signWebhook } from "~/webhooks/send.server";
import { webhookUrlProblem } from "~/webhooks/forms.server";

describe("forbiddenAddressReason: only public unicast addresses may be called", () => {
  const refused = [
    "127.0.0.1",
    "127.255.255.254",
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "100.127.255.255",
    "224.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
    "198.18.0.1",
    "240.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "febf::1",
    "fc00::1",
    "fd00::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:192.168.0.1",
    "::ffff:100.64.0.1",
    "::ffff:0.0.0.0",
    "::127.0.0.1",
    "::7f00:1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "2001:db8::1",
    "[::1]",
    "fe80::1%eth0",
    "localhost",
    "not an address",
    "",
    "1.2.3",
    "999.1.1.1",
  ];
  it.each(refused)("refuses %s", (address) => {
    expect(forbiddenAddressReason(address)).toBeTypeOf("string");
  });

  const allowed = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "169.255.0.1", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8"];
  it.each(allowed)("allows %s", (address) => {
    expect(forbiddenAddressReason(address)).toBeUndefined();
  });
});

describe("resolveWebhookTarget", () => {
  it("checks literal addresses without a lookup, and lets them through with WEBHOOK_ALLOW_PRIVATE", async () => {
    await expect(resolveWebhookTarget("127.0.0.1", false)).rejects.toThrow(/Refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
    await expect(resolveWebhookTarget("[::1]", false)).rejects.toThrow(/Refused/);
    await expect(resolveWebhookTarget("[::ffff:7f00:1]", false)).rejects.toThrow(/Refused/);
    await expect(resolveWebhookTarget("127.0.0.1", true)).resolves.toEqual({ address: "127.0.0.1", family: 4 });
    await expect(resolveWebhookTarget("8.8.8.8", false)).resolves.toEqual({ address: "8.8.8.8", family: 4 });
  });

  it("checks what a name resolves to", async () => {
    await expect(resolveWebhookTarget("localhost", false)).rejects.toThrow(/Refused: localhost resolves to/);
    await expect(resolveWebhookTarget("localhost", true)).resolves.toMatchObject({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
    await expect(resolveWebhookTarget("no-such-host.invalid", false)).rejects.toThrow(/Could not resolve/);
  });
});

describe("webhook URLs", () => {
  it("accepts http and https URLs with a host and no credentials, at most 2,000 characters", () => {
    expect(webhookUrlProblem("https://example.com/hooks")).toBeUndefined();
    expect(webhookUrlProblem("http://10.0.0.1:8080/x?y=1")).toBeUndefined();
    for (const bad of [
      "javascript:alert(1)",
      "ftp://example.com/",
      "file:///etc/passwd",
      "https://user:pass@example.com/",
      "https://user@example.com/",
      "example.com/hooks",
      "https://exa mple.com/",
      "https://example.com/\u0000",
      `https://example.com/${"a".repeat(2000)}`,
      "data:text/plain,hi",
    ]) {
      expect(webhookUrlProblem(bad), bad).toBeTypeOf("string");
    }
  });
});

describe("signWebhook", () => {
  it("signs id.timestamp.body with the secret's bytes, as the Standard Webhooks specification's example does", () => {
    // The specification's test vector.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const signature = signWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});
