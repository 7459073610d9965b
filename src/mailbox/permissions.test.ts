import { describe, expect, test } from "vitest";
import {
  assertMayDirectWebhooks,
  assertPermitted,
  assertWithin,
  expired,
  FULL_GRANT,
  type Grant,
  hiddenFolder,
  inOrder,
  PERMISSIONS,
  unlimited,
} from "./permissions.ts";

const grant = (permissions: Grant["permissions"], expiresAt: Date | null = null): Grant => ({
  keyId: "key_1",
  permissions,
  expiresAt,
});

describe("a key's permissions", () => {
  test("a missing permission is a 403 naming it", () => {
    expect(() => assertPermitted(grant(["send"]), "read")).toThrow(
      expect.objectContaining({ kind: "FORBIDDEN", details: { permission: "read" } }),
    );
    expect(() => assertPermitted(grant(["send"]), "send")).not.toThrow();
  });

  test("the primary key's grant has every permission, for ever", () => {
    expect(FULL_GRANT.permissions).toEqual(PERMISSIONS);
    expect(unlimited(FULL_GRANT)).toBe(true);
    expect(unlimited(grant([...PERMISSIONS], new Date(1)))).toBe(false);
    expect(unlimited(grant(["read", "send", "manage"]))).toBe(false);
  });

  test("permissions are kept once each, in the one order", () => {
    expect(inOrder(["events", "read", "events"])).toEqual(["read", "events"]);
  });

  test("a grant lapses at its expiry, not before", () => {
    const at = new Date(1_000);
    expect(expired(grant(["read"], at), new Date(999))).toBe(false);
    expect(expired(grant(["read"], at), at)).toBe(true);
    expect(expired(grant(["read"]), new Date(8e15))).toBe(false);
  });
});

describe("a child key never exceeds its parent", () => {
  const parent = grant(["read", "manage"], new Date(10_000));

  test("fewer or the same permissions, expiring no later: allowed", () => {
    expect(() => assertWithin(parent, { permissions: ["read"], expiresAt: new Date(10_000) })).not.toThrow();
    expect(() => assertWithin(FULL_GRANT, { permissions: [...PERMISSIONS], expiresAt: null })).not.toThrow();
  });

  test("a permission the parent lacks is refused, naming it", () => {
    expect(() => assertWithin(parent, { permissions: ["read", "send"], expiresAt: new Date(1) })).toThrow(
      expect.objectContaining({ kind: "FORBIDDEN", details: { permission: "send" } }),
    );
  });

  test("outliving the parent is refused: a later expiry, or none", () => {
    expect(() => assertWithin(parent, { permissions: ["read"], expiresAt: new Date(10_001) })).toThrow(/outlives/);
    expect(() => assertWithin(parent, { permissions: ["read"], expiresAt: null })).toThrow(/outlives/);
  });

  test("a child of a key barred from junk is barred too; a key that sees junk may make either", () => {
    const barred = { ...grant(["read", "manage"]), hideJunk: true };
    expect(() => assertWithin(barred, { permissions: ["read"], expiresAt: null })).toThrow(
      expect.objectContaining({ kind: "FORBIDDEN", details: { permission: "manage" } }),
    );
    expect(() => assertWithin(barred, { permissions: ["read"], expiresAt: null, hideJunk: false })).toThrow(/junk/);
    expect(() => assertWithin(barred, { permissions: ["read"], expiresAt: null, hideJunk: true })).not.toThrow();
    expect(() => assertWithin(FULL_GRANT, { permissions: ["read"], expiresAt: null, hideJunk: true })).not.toThrow();
  });
});

describe("a key barred from junk", () => {
  test("never sees the junk folder; any other key sees every folder", () => {
    expect(hiddenFolder({ hideJunk: true })).toBe("junk");
    expect(hiddenFolder({ hideJunk: false })).toBeNull();
    expect(hiddenFolder(FULL_GRANT)).toBeNull();
  });

  test("is not the primary key's equal", () => {
    expect(unlimited({ ...FULL_GRANT, hideJunk: true })).toBe(false);
  });

  test("makes and points no webhook, which hears of junk too (403 naming manage); any other key may", () => {
    expect(() => assertMayDirectWebhooks({ ...FULL_GRANT, hideJunk: true })).toThrow(
      expect.objectContaining({ kind: "FORBIDDEN", details: { permission: "manage" } }),
    );
    expect(() => assertMayDirectWebhooks(grant(["manage"]))).not.toThrow();
  });
});
