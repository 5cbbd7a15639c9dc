/** A mail as Cairn writes it: always a plain-text part; HTML only as an alternative to it. */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where a recipient turns this kind of mail off (`List-Unsubscribe`), for notifications. */
  unsubscribeUrl?: string;
};
