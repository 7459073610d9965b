// What came back about mail an agent sent: delivery status notifications
// and complaint reports, matched to the sent email by its Message-ID.

/** A recipient's state as reports tell it, worst last. */
export const DELIVERY_STATUSES = ["delivered", "delayed", "complained", "bounced"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One recipient as a report names it. */
export interface ReportedRecipient {
  /** The address the reporting server delivered to (after any aliasing). */
  finalRecipient: string;
  /** The address as the sender gave it, when the report says. */
  originalRecipient: string | null;
  status: DeliveryStatus;
  /** The report's own word: failed, delayed, delivered, relayed, expanded, or the complaint's feedback type. */
  action: string;
  /** The enhanced status code (5.1.1), from the Status field or the diagnostic text. */
  statusCode: string | null;
  diagnosticCode: string | null;
  remoteMta: string | null;
  /** When the reporting server says it happened. */
  at: Date | null;
}

/** A delivery status notification or a complaint, as the inbound side read it. */
export interface DeliveryReport {
  kind: "delivery" | "complaint";
  /** The Message-IDs it may be about, the likeliest first. */
  originalMessageIds: string[];
  recipients: ReportedRecipient[];
}

/** Whether a machine sent a received email, as its headers tell; null for a person. */
export type AutoSubmitted = "auto-replied" | "auto-generated" | "list" | null;
