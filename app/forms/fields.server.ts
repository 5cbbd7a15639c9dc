import { z } from "zod";
import { passwordProblem } from "~/auth/password.server";

/** Field rules of SPEC §5 that several forms share; each message says how to fix the value. */
export const emailField = z
  .string({ error: "Enter an email address." })
  .trim()
  .toLowerCase()
  .max(254, "Use at most 254 characters.")
  .pipe(z.email("Enter a valid email address."));

export const userNameField = z
  .string({ error: "Enter a name." })
  .trim()
  .min(1, "Enter a name.")
  .max(80, "Use at most 80 characters.");

/** A new password: length and the common-password list here; "not the email" needs the form's email too. */
export const newPasswordField = z.string({ error: "Enter a password." }).superRefine((password, ctx) => {
  const problem = passwordProblem(password, "");
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** Ids are 32-bit integer columns: a larger number is refused here, not by PostgreSQL. */
export const idField = z.coerce.number({ error: "Choose an entry." }).int().positive().max(2_147_483_647);
