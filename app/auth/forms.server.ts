import { z } from "zod";
import { apiTokenScopes } from "~/db/schema";
import { checkboxField, emailField, idField, newPasswordField, singleLineText, userNameField } from "~/forms/fields.server";
import { handleField } from "./handles.server";
import { passwordProblem } from "./password.server";
import { timeZoneField } from "./time-zones.server";

export const signupSchema = z
  .object({
    name: userNameField,
    email: emailField,
    /** Optional: without it the account gets one from its email. */
    handle: handleField.optional(),
    password: newPasswordField,
    redirectTo: z.string().optional(),
    invitation: z.string().optional(),
  })
  // Zod runs this even when a field failed: add only what the password field could not know.
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value.password, value.email);
    if (problem && passwordProblem(value.password, "") === undefined) {
      ctx.addIssue({ code: "custom", path: ["password"], message: problem });
    }
  });
export type SignupForm = z.input<typeof signupSchema>;

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: "Enter your password." }),
  redirectTo: z.string().optional(),
});
export type LoginForm = z.input<typeof loginSchema>;

/** Without a time zone or a handle (a form from before there was one) the saved one stays. */
export const profileSchema = z.object({
  intent: z.literal("profile").optional(),
  name: userNameField,
  email: emailField,
  handle: handleField.optional(),
  currentPassword: z.string().optional(),
  timeZone: timeZoneField.optional(),
});
export type ProfileForm = z.input<typeof profileSchema>;

/** The browser's own zone, sent once by TimeZoneReporter for someone who has none yet. */
export const browserTimeZoneSchema = z.object({ intent: z.literal("time-zone"), timeZone: timeZoneField });

/** What /settings accepts: the profile form (intent=profile, or none) or the browser's zone. */
export const profileActionSchema = z.discriminatedUnion("intent", [profileSchema, browserTimeZoneSchema]);

/** The new password's rules need the user's email: the route checks them with `passwordProblem`. */
export const passwordChangeSchema = z.object({
  currentPassword: z.string({ error: "Enter your current password." }),
  newPassword: newPasswordField,
  revokeApiTokens: checkboxField,
});
export type PasswordChangeForm = z.input<typeof passwordChangeSchema>;

export const incorrectCredentialsMessage = "Email or password is incorrect.";
export const wrongCurrentPasswordMessage = "That is not your current password.";

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordForm = z.input<typeof forgotPasswordSchema>;

/** The new password's rules need the account's email: the route checks them with `passwordProblem`. */
export const resetPasswordSchema = z.object({ password: newPasswordField });
export type ResetPasswordForm = z.input<typeof resetPasswordSchema>;

/** `/settings/tokens`: a new token (`expiresInDays` 30, 90, 365, or empty for never), or revoking one. */
export const apiTokensSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create"),
    name: singleLineText({ empty: "Name the token: what will use it?", max: 80 }),
    scope: z.enum(apiTokenScopes, { error: "Choose read or write." }),
    expiresInDays: z
      .enum(["30", "90", "365", ""], { error: "Choose when it expires." })
      .default("")
      .transform((days) => (days === "" ? null : Number(days))),
  }),
  z.object({ intent: z.literal("revoke"), tokenId: idField }),
]);
export type NewApiTokenForm = { name: string; scope: string; expiresInDays: string };
