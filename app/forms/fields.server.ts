import { z } from "zod";

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

/** Length and the other rules are checked by `passwordProblem`, which also needs the email. */
export const passwordField = z.string({ error: "Enter a password." });

export const idField = z.coerce.number({ error: "Choose an entry." }).int().positive();
