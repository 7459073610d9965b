import { newNonce, pageHeaders } from "./html.ts";

// GraphiQL served whole by the service: @graphql-yoga/render-graphiql inlines
// the editor, its styles and its Monaco workers into one page, so nothing is
// fetched from a CDN. The Content-Security-Policy allows this origin and that
// one inline script only, so a change that brought a CDN back would show as a
// blocked request rather than work quietly.

const DEFAULT_QUERY = `# Your API key goes in the Headers tab below: "Authorization": "Bearer ph_…".
# Put your agent's id here, then run (Ctrl-Enter).
{
  agent(id: "your-agent-id") {
    id
    email
    verified
    storageUsed
  }
}
`;

let page: { before: string; after: string } | undefined;

/** The page, rendered once; split where the nonce goes. Loaded on first use: the bundle is 9 MB. */
async function template() {
  if (!page) {
    const { renderGraphiQL } = await import("@graphql-yoga/render-graphiql");
    const headers = JSON.stringify({ Authorization: "Bearer <your API key>" }, null, 2);
    const html = renderGraphiQL({
      title: "Pigeonhole GraphiQL",
      endpoint: "/graphql",
      // Yoga's page opens with `query` (its type does not list it); `headers` prefill the editor.
      ...{ query: DEFAULT_QUERY },
      headers,
    });
    // The page's own script tag, after its root element; others appear only inside strings of the bundle.
    const at = html.indexOf("<script>", html.indexOf('<div id="root">'));
    page = { before: html.slice(0, at + "<script".length), after: html.slice(at + "<script".length) };
  }
  return page;
}

/** The GraphiQL page and the headers it must be served with, a fresh nonce each time. */
export async function graphiqlPage(): Promise<{ html: string; headers: Record<string, string> }> {
  const nonce = newNonce();
  const { before, after } = await template();
  const headers = pageHeaders([
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // Monaco sets styles on elements as it lays out the editor.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    // The editor's workers are made from blobs of the page's own script.
    "worker-src blob:",
    "connect-src 'self'",
  ]);
  return { html: `${before} nonce="${nonce}"${after}`, headers };
}
