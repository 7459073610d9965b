// A plain address, local@domain, as a recipient or reply-to: a dot-atom local
// part and a domain of letters, digits and dashes. Display names and quoted
// local parts are refused, so an address can never carry a header with it.

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/** A domain mail can be addressed to: labels of letters, digits and dashes, and a top-level one. */
export const isDomainName = (value: string) => DOMAIN.test(value);

/** The local part and domain of local@domain with a dot-atom local part; null for anything else. */
function partsOf(value: string): { local: string; domain: string } | null {
  const at = value.lastIndexOf("@");
  if (at < 1 || value.length > 254) return null;
  const local = value.slice(0, at);
  return local.length <= 64 && LOCAL.test(local) ? { local, domain: value.slice(at + 1) } : null;
}

export function isEmailAddress(value: string): boolean {
  const parts = partsOf(value);
  return parts !== null && DOMAIN.test(parts.domain);
}

/**
 * A recipient: an address mail can be sent to, or one at a domain the
 * instance serves, which MAIL_DOMAINS may name without a dot (localhost).
 */
export function isRecipientAddress(value: string, served: readonly string[]): boolean {
  const parts = partsOf(value);
  return parts !== null && (DOMAIN.test(parts.domain) || served.includes(parts.domain.toLowerCase()));
}
