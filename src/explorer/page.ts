/**
 * The explorer's HTML page. `synaptic explore` serves it with the app script, graph snapshot and
 * core fetched from the same origin; `synaptic export html` inlines all three so the single file
 * works from `file://` with no network. Browser-safe (a string template, no DOM).
 */

export interface PageOptions {
  title: string;
  /** The bundled app script: inlined when given, else loaded from `./app.js`. */
  appScript?: string;
  /** Inlined data for a self-contained file (base64). Absent: the app fetches `./graph.cbor` and `./synaptic.wasm`. */
  inline?: { graphCbor: string; wasm: string };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `</script` inside inline script text would end the element early. */
function scriptSafe(text: string): string {
  return text.replace(/<\/(script)/gi, '<\\/$1');
}

export const PAGE_CSS = `
:root { color-scheme: dark; --bg:#0f1115; --panel:#171a21; --line:#2a2f3a; --text:#d8dde6; --dim:#8b93a3; --accent:#6cb6ff; --warn:#f0b429; }
* { box-sizing: border-box; }
html, body, #app { margin:0; height:100%; background:var(--bg); color:var(--text); font:13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display:flex; gap:12px; align-items:center; padding:8px 12px; border-bottom:1px solid var(--line); background:var(--panel); }
header h1 { font-size:14px; margin:0; font-weight:600; white-space:nowrap; }
header .repo { color:var(--dim); }
#search-wrap { position:relative; flex:1; max-width:560px; }
#search { width:100%; padding:6px 10px; border-radius:6px; border:1px solid var(--line); background:var(--bg); color:var(--text); font-size:13px; }
#results { position:absolute; top:34px; left:0; right:0; z-index:10; background:var(--panel); border:1px solid var(--line); border-radius:6px; max-height:60vh; overflow:auto; margin:0; padding:4px 0; list-style:none; }
#results li { padding:4px 10px; cursor:pointer; display:flex; gap:8px; align-items:baseline; }
#results li.active, #results li:hover { background:#22324a; }
nav.modes button { background:none; border:1px solid var(--line); color:var(--text); padding:4px 10px; border-radius:6px; cursor:pointer; }
nav.modes button.on { border-color:var(--accent); color:var(--accent); }
main { display:grid; grid-template-columns: 300px 1fr 360px; height: calc(100% - 47px); }
aside { overflow:auto; padding:10px 12px; border-right:1px solid var(--line); }
aside#right { border-right:none; border-left:1px solid var(--line); }
#graph { position:relative; min-width:0; overflow:hidden; }
#canvas { position:absolute; inset:0; }
#canvas svg.graph { display:block; cursor:grab; user-select:none; }
#canvas svg.graph:active { cursor:grabbing; }
#canvas .node { stroke:var(--bg); stroke-width:1.5px; vector-effect:non-scaling-stroke; cursor:pointer; }
#canvas .node.focus { stroke:#fff; stroke-width:2.5px; }
#canvas .inner { font:600 10px system-ui, -apple-system, "Segoe UI", sans-serif; fill:#0f1115; pointer-events:none; }
#canvas .edge { vector-effect:non-scaling-stroke; pointer-events:none; }
#canvas text.label { font:12px system-ui, -apple-system, "Segoe UI", sans-serif; fill:var(--text); cursor:pointer; paint-order:stroke; stroke:var(--bg); stroke-width:3px; stroke-linejoin:round; }
#canvas text.label.note { fill:var(--warn); cursor:default; font-size:11px; }
#canvas text.label .badge { fill:var(--accent); font-weight:600; }
#canvas svg.hovering .edge:not(.hl) { stroke-opacity:.06; }
#canvas svg.hovering .node:not(.hl) { opacity:.35; }
#canvas svg.hovering text.label:not(.hl) { opacity:.35; }
#canvas .edge.hl { stroke-opacity:.95; }
#tooltip { position:absolute; z-index:5; pointer-events:none; max-width:360px; background:rgba(23,26,33,.97); border:1px solid var(--line); border-radius:6px; padding:6px 8px; font-size:12px; overflow-wrap:anywhere; }
#tooltip div { color:var(--dim); }
#crumbs { position:absolute; left:8px; top:8px; max-width:calc(100% - 180px); font-size:12px; color:var(--dim); white-space:nowrap; overflow:hidden; text-overflow:ellipsis; }
#crumbs a { color:var(--accent); text-decoration:none; }
#crumbs .sep { margin:0 6px; }
#crumbs .here { color:var(--text); }
#legend { position:absolute; left:8px; bottom:8px; background:rgba(23,26,33,.9); border:1px solid var(--line); border-radius:6px; padding:4px 8px; max-width:calc(100% - 16px); font-size:11px; }
#legend:empty { display:none; }
#legend .entry { display:inline-block; margin-right:10px; white-space:nowrap; }
#legend span.sw { display:inline-block; width:9px; height:9px; border-radius:50%; margin-right:4px; vertical-align:middle; }
#status { position:absolute; right:8px; top:8px; color:var(--dim); font-size:12px; }
#status:empty { display:none; }
h2 { font-size:13px; margin:12px 0 6px; color:var(--dim); text-transform:uppercase; letter-spacing:.04em; }
.kind { color:var(--dim); font-size:11px; }
.file { color:var(--dim); font-size:12px; word-break:break-all; }
.rel { color:var(--warn); font-size:11px; }
a.node, button.link { color:var(--accent); cursor:pointer; text-decoration:none; background:none; border:none; padding:0; font:inherit; text-align:left; }
ul.list { list-style:none; padding:0; margin:0; }
ul.list li { padding:2px 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size:12px; }
pre.sig { white-space:pre-wrap; background:var(--bg); border:1px solid var(--line); padding:6px; border-radius:4px; }
.row { display:flex; gap:6px; align-items:center; margin:6px 0; flex-wrap:wrap; }
.row input { flex:1; padding:4px 8px; border-radius:4px; border:1px solid var(--line); background:var(--bg); color:var(--text); }
.row button.on, button.act.on { border-color:var(--accent); color:var(--accent); }
.row button, button.act { background:#22324a; color:var(--text); border:1px solid var(--line); border-radius:4px; padding:4px 8px; cursor:pointer; }
#error-page { max-width:640px; margin:12vh auto; padding:24px; background:var(--panel); border:1px solid #7a2e2e; border-radius:8px; }
#error-page h1 { color:#ff8b8b; font-size:18px; }
.hidden { display:none !important; }
`;

/** The whole page; the app fills `#left`, `#right`, `#canvas` and shows `#error-page` on a load failure. */
export function renderPage(options: PageOptions): string {
  const title = escapeHtml(options.title);
  const inline = options.inline
    ? `<script id="synaptic-graph" type="application/octet-stream">${options.inline.graphCbor}</script>
<script id="synaptic-wasm" type="application/octet-stream">${options.inline.wasm}</script>`
    : '';
  const app = options.appScript !== undefined ? `<script>${scriptSafe(options.appScript)}</script>` : '<script src="./app.js"></script>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title} · Synaptic explorer</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div id="app" class="hidden">
<header>
  <h1>Synaptic <span class="repo">${title}</span></h1>
  <div id="search-wrap"><input id="search" type="search" placeholder="Search symbols (/ to focus, ↑↓ to move, Enter to open)" autocomplete="off" spellcheck="false" aria-label="Search symbols"><ul id="results" class="hidden" role="listbox"></ul></div>
  <nav class="modes">
    <button data-mode="overview">Map</button><button data-mode="node">Node</button><button data-mode="path">Path</button><button data-mode="impact">Impact</button>
  </nav>
</header>
<main>
  <aside id="left"></aside>
  <section id="graph"><div id="canvas"></div><nav id="crumbs" aria-label="Where you are"></nav><div id="legend"></div><div id="status"></div></section>
  <aside id="right"></aside>
</main>
</div>
<div id="loading">Loading graph…</div>
<div id="error-page" class="hidden"><h1>Cannot show this graph</h1><p id="error-message"></p><p>Run <code>synaptic extract &lt;repo&gt;</code> to (re)build <code>synaptic-out/</code>, then open the explorer again.</p></div>
${inline}
${app}
</body>
</html>
`;
}
