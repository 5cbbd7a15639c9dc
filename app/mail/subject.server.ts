import { encodeWord } from "nodemailer/lib/mime-funcs";

/**
 * A subject as it goes into the mail's header. Subjects carry what people typed (an issue's title,
 * a name), and nodemailer passes a valid MIME encoded word through as it is, for the mail client
 * to decode: a title such as `=?utf-8?q?Eve=0D=0ABcc:…?=` would read as a line break and another
 * header there. A subject holding `=?` is therefore encoded whole, so that it reads back as typed.
 */
export function mailSubject(subject: string): string {
  return subject.includes("=?") ? encodeWord(subject, "Q", 52) : subject;
}
