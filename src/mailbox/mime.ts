// One way to read a MIME message, for filing and for finding an attachment
// again later: the same options both times, so its parts come out the same.
// mailparser copes with encoded words, foreign charsets and broken MIME; it
// must neither invent a text body from the HTML nor the reverse. It is
// loaded with the first message read, not at start.

export async function parseMime(raw: Buffer) {
  const { simpleParser } = await import("mailparser");
  return simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    checksumAlgo: "sha256",
  });
}

/** Each attachment's decoded bytes, in the order parseMime gives them: the positions filing records. */
export async function attachmentContents(raw: Buffer): Promise<Buffer[]> {
  return (await parseMime(raw)).attachments.map((attachment) => attachment.content);
}

/** The <…> Message-IDs in a header, in order. */
export function messageIdsIn(value: string | string[] | undefined): string[] {
  return [value ?? []].flat().flatMap((part) => part.match(/<[^<>\s]+>/g) ?? []);
}
