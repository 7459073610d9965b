import { type DnsRecord, type DomainView, openDomains, type RecordCheck } from "../mailbox/domains.ts";
import { builder } from "./builder.ts";
import { RecordStatusEnum } from "./enums.ts";

// Domains: the names agents may register on, for anyone; their DNS records,
// checks and DKIM keys for the operator (the admin namespace's fields are in
// admin.ts).

const DnsRecordType = builder.objectRef<DnsRecord>("DnsRecord").implement({
  description: "A DNS record to publish",
  fields: (t) => ({
    type: t.exposeString("type", { description: "MX or TXT" }),
    name: t.exposeString("name"),
    value: t.exposeString("value"),
    purpose: t.exposeString("purpose"),
  }),
});

const RecordCheckType = builder.objectRef<RecordCheck>("RecordCheck").implement({
  description: "What DNS held for a record at the last verify",
  fields: (t) => ({
    type: t.exposeString("type"),
    name: t.exposeString("name"),
    value: t.exposeString("value", { description: "What it should hold" }),
    purpose: t.exposeString("purpose"),
    status: t.expose("status", { type: RecordStatusEnum }),
    found: t.exposeStringList("found", { description: "What DNS holds there, of the record's kind" }),
  }),
});

const DomainCheckType = builder.objectRef<NonNullable<DomainView["lastCheck"]>>("DomainCheck").implement({
  fields: (t) => ({
    checkedAt: t.expose("checkedAt", { type: "Timestamp" }),
    records: t.expose("records", { type: [RecordCheckType] }),
  }),
});

export const DomainType = builder.objectRef<DomainView>("Domain").implement({
  description: "A domain the instance serves, with the DNS records to publish (never its private keys)",
  fields: (t) => ({
    name: t.exposeString("name"),
    source: t.exposeString("source", {
      description: "config (MAIL_DOMAINS) or operator (added through the admin API)",
    }),
    open: t.exposeBoolean("open", {
      description: "Agents may register on it themselves: always for MAIL_DOMAINS', once opened for the operator's",
    }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    selector: t.exposeString("selector", { nullable: true, description: "The DKIM selector mail is signed with" }),
    records: t.expose("records", { type: [DnsRecordType], description: "What to publish" }),
    removable: t.expose("removable", {
      type: [DnsRecordType],
      description: "Records of retired DKIM keys, which may be removed",
    }),
    lastCheck: t.expose("lastCheck", { type: DomainCheckType, nullable: true }),
  }),
});

builder.queryField("domains", (t) =>
  t.stringList({
    description: "The domains an agent may register on (createAgent's domain), the default first. No key needed.",
    resolve: (_, __, ctx) => openDomains(ctx),
  }),
);
