import { Asset } from "./assets.ts";
import { appPolicy, newNonce } from "./html.ts";

// GraphiQL served whole by the service: @graphql-yoga/render-graphiql inlines
// the editor, its styles and its Monaco workers into one page of 9 MB, so
// nothing is fetched from a CDN. That page is taken apart into a small one,
// served afresh with its nonce, and the script, styles and icon it loads,
// served as assets a browser keeps (assets.ts). The Content-Security-Policy
// allows this origin and that one script only, so a change that brought a
// CDN back would show as a blocked request rather than work quietly.

const DEFAULT_QUERY = `# Your API key goes in the Headers tab below: "Authorization": "Bearer ph_…".
# Then run (Ctrl-Enter): me is the key's agent.
{
  me {
    id
    email
    verified
    storageUsed
  }
}
`;

interface Rendered {
  /** The page, split where its script's nonce goes. */
  before: string;
  after: string;
  assets: Asset[];
}

let rendered: Promise<Rendered> | undefined;

/** The icon, the styles and the script out of Yoga's page, each an asset the page now links to. */
async function render(): Promise<Rendered> {
  const { renderGraphiQL } = await import("@graphql-yoga/render-graphiql");
  const headers = JSON.stringify({ Authorization: "Bearer <your API key>" }, null, 2);
  // Yoga's page opens with `query` (its type does not list it); `headers` prefill the editor.
  let html = renderGraphiQL({
    title: "Pigeonhole GraphiQL",
    endpoint: "/graphql",
    ...{ query: DEFAULT_QUERY },
    headers,
  });
  const icon = /href="data:image\/x-icon;base64,([^"]+)"/.exec(html);
  const style = /<style>([\s\S]*?)<\/style>/.exec(html);
  // The page's own script: after its root element, to the page's last </script>; others appear only inside its strings.
  const scriptAt = html.indexOf("<script>", html.indexOf('<div id="root">'));
  const scriptEnd = html.lastIndexOf("</script>");
  if (!icon || !style || scriptAt < 0 || scriptEnd < scriptAt) throw new Error("GraphiQL's page has changed shape");
  const assets = {
    icon: new Asset("graphiql", "ico", "image/x-icon", Buffer.from(icon[1] ?? "", "base64")),
    style: new Asset("graphiql", "css", "text/css; charset=utf-8", Buffer.from(style[1] ?? "")),
    script: new Asset(
      "graphiql",
      "js",
      "text/javascript; charset=utf-8",
      Buffer.from(html.slice(scriptAt + 8, scriptEnd)),
    ),
  };
  html = `${html.slice(0, scriptAt)}<script src="${assets.script.path}"></script>${html.slice(scriptEnd + 9)}`;
  html = html.replace(style[0], () => `<link rel="stylesheet" href="${assets.style.path}">`);
  html = html.replace(icon[0], () => `href="${assets.icon.path}"`);
  const at = html.indexOf("<script src=") + "<script".length;
  return { before: html.slice(0, at), after: html.slice(at), assets: Object.values(assets) };
}

/** Yoga's page taken apart, on first use. */
function renderedOnce(): Promise<Rendered> {
  rendered ??= render();
  return rendered;
}

/** GraphiQL's assets. */
export async function graphiqlAssets(): Promise<Asset[]> {
  return (await renderedOnce()).assets;
}

/** The GraphiQL page and the headers it must be served with, a fresh nonce each time. */
export async function graphiqlPage(): Promise<{ html: string; headers: Record<string, string> }> {
  const nonce = newNonce();
  const { before, after } = await renderedOnce();
  return { html: `${before} nonce="${nonce}"${after}`, headers: appPolicy(nonce) };
}
