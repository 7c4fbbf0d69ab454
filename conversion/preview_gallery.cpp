#include "preview_gallery.hpp"

#include "preview_view.hpp"

#include <string_view>

namespace msh::conversion {

namespace {

// Everything up to the embedded index. The CSP keeps the page offline: it may show its own
// images and run its inline code and the scripts beside it (the viewer and the assets' views,
// loaded when a view opens), nothing else; blob: images are the textures the viewer decodes.
constexpr std::string_view kHead = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline' 'self' file:">
<title>mshconv preview</title>
<style>
:root {
  --bg: #f5f6f8; --card: #fff; --ink: #1c2026; --muted: #5d6570; --line: #dde1e6;
  --accent: #2a5db0; --err: #b3261e; --check: #e3e6ea;
}
* { box-sizing: border-box; }
html { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  background: var(--bg); }
body { margin: 0; }
[hidden] { display: none !important; }
header { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; align-items: center;
  gap: 8px 16px; padding: 10px 20px; background: var(--card); border-bottom: 1px solid var(--line); }
h1 { margin: 0; font-size: 18px; font-weight: 600; }
#count { color: var(--muted); }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-left: auto; }
input, select { font: inherit; color: inherit; padding: 5px 8px; border: 1px solid var(--line);
  border-radius: 6px; background: #fff; }
#search { width: 18em; }
#shown { min-width: 9em; text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
main { padding: 16px 20px; }
#grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 14px;
  align-items: start; }
/* Tiles off screen are neither laid out nor painted until scrolled to (thousands of assets). */
.tile { content-visibility: auto; contain-intrinsic-size: auto 210px auto 360px; margin: 0;
  display: flex; flex-direction: column; overflow: hidden; background: var(--card);
  border: 1px solid var(--line); border-radius: 8px; }
.thumb { aspect-ratio: 1; display: grid; place-items: center; background: #eceef1;
  border-bottom: 1px solid var(--line); }
/* Scaled to fit the square by the longer side (known from width/height before it loads). The
   checkerboard sits behind the image only, so transparent pixels show as such. */
.thumb img { display: block; width: 100%; height: auto;
  background: repeating-conic-gradient(var(--check) 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
.thumb img.tall { width: auto; height: 100%; }
.nopng { color: var(--muted); font-size: 12px; }
figcaption { display: flex; flex-direction: column; gap: 4px; min-width: 0; padding: 8px 10px 10px; }
.head { display: flex; align-items: baseline; justify-content: space-between; gap: 6px; }
.name { font-weight: 600; overflow-wrap: anywhere; }
.kind { flex: none; padding: 1px 7px; border-radius: 9px; font-size: 11px; background: #e8ebf0;
  color: #39414c; }
.tile[data-kind=model] .kind { background: #e2ecfa; color: #1f4d8f; }
.tile[data-kind=map] .kind { background: #e3f3e6; color: #256b32; }
.tile[data-kind=level] .kind { background: #efe4f7; color: #5b2d7e; }
.tile[data-kind=texture] .kind { background: #f7ecd9; color: #7a5312; }
.tile[data-kind=error] { border-color: #eab9b5; }
.tile[data-kind=error] .kind { background: #fbe2df; color: var(--err); }
.source { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
.error { margin: 0; font-size: 12px; color: var(--err); white-space: pre-wrap; overflow-wrap: anywhere; }
.facts { display: grid; grid-template-columns: auto 1fr; gap: 1px 8px; margin: 2px 0 0; font-size: 12px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
.facts ul { margin: 0; padding: 0; list-style: none; }
.facts summary { cursor: pointer; color: var(--accent); }
.meta { align-self: flex-start; font-size: 12px; color: var(--accent); }
.links { display: flex; gap: 12px; }
.open3d { padding: 0; border: 0; background: none; font: inherit; font-size: 12px; color: var(--accent);
  cursor: pointer; text-decoration: underline; }
.thumb.opens { cursor: zoom-in; }
#viewer { position: fixed; inset: 0; z-index: 2; display: flex; flex-direction: column;
  background: #1b1e23; }
#viewer .vhead { display: flex; align-items: center; gap: 12px; padding: 6px 12px; color: #e8eaed;
  background: #14161a; }
#viewer .vhead .name { flex: 1; }
#viewer .vhead button { font: inherit; padding: 2px 10px; }
#viewhost { flex: 1; min-height: 0; display: flex; flex-direction: column; }
#viewhost > .mv { flex: 1; }
#empty { padding: 40px 0; text-align: center; color: var(--muted); }
footer { padding: 0 20px 20px; font-size: 12px; color: var(--muted); }
@media (max-width: 640px) { .controls { width: 100%; margin-left: 0; } #search { flex: 1; width: auto; } }
</style>
</head>
<body>
<header>
  <h1>mshconv preview</h1>
  <span id="count"></span>
  <div class="controls">
    <input id="search" type="search" placeholder="Search name, source, facts" aria-label="Search"
      autocomplete="off" spellcheck="false">
    <select id="kind" aria-label="Kind"></select>
    <span id="shown" aria-live="polite"></span>
  </div>
</header>
<main>
  <div id="grid"></div>
  <p id="empty" hidden>No asset matches the filters.</p>
</main>
<footer id="about"></footer>
<div id="viewer" role="dialog" aria-modal="true" aria-labelledby="viewname" hidden>
  <div class="vhead"><span class="name" id="viewname"></span><button id="viewclose" type="button">close (Esc)</button></div>
  <div id="viewhost"></div>
</div>
<noscript><p>The gallery needs JavaScript; index.json lists the same assets.</p></noscript>
<script type="application/json" id="assets">)html";

// After the embedded index: the code that builds and filters the grid.
constexpr std::string_view kTail = R"html(</script>
<script>
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("assets").textContent);
  const assets = Array.isArray(data.assets) ? data.assets : [];
  const search = document.getElementById("search");
  const kindSelect = document.getElementById("kind");
  const shown = document.getElementById("shown");

  // The only way data reaches the DOM: as text, never as markup.
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // Failed assets are filed under "error" whatever their kind, so the kinds partition the grid.
  const kindOf = (a) => (a.status === "error" ? "error" : String(a.kind || "other"));

  // Scalars of a value, depth first: what the search matches besides the keys' names.
  function scalars(v, out) {
    if (v === null || v === undefined) return out;
    if (Array.isArray(v)) for (const x of v) scalars(x, out);
    else if (typeof v === "object") for (const x of Object.values(v)) scalars(x, out);
    else out.push(String(v));
    return out;
  }

  const isScalar = (v) => v === null || typeof v !== "object";
  // Fractions rounded for display (bounds); the search still sees the full value.
  const num = (v) => (typeof v === "number" && !Number.isInteger(v) ? String(+v.toFixed(3)) : String(v));
  function text(v) {
    if (isScalar(v)) return num(v);
    if (Array.isArray(v)) {
      if (v.every(isScalar)) return v.map(num).join(", ");
      return v.map((x) => (isScalar(x) ? num(x) : Array.isArray(x) ? "[" + text(x) + "]" : "{" + text(x) + "}")).join(" ");
    }
    return Object.entries(v).map(([k, x]) => k + ": " + text(x)).join(", ");
  }

  // Long lists fold into <details> so one asset cannot stretch its row.
  const FOLD = 8;
  function folded(dd, body, n, what) {
    if (n <= FOLD) {
      dd.append(body);
    } else {
      const d = el("details");
      d.append(el("summary", null, n + " " + what), body);
      dd.append(d);
    }
    return dd;
  }
  function factValue(v) {
    const dd = el("dd");
    if (isScalar(v)) {
      dd.textContent = num(v);
    } else if (Array.isArray(v)) {
      folded(dd, el("span", null, v.length ? text(v) : "\u2013"), v.length, "items");
    } else {
      const ul = el("ul");
      for (const [k, x] of Object.entries(v)) ul.append(el("li", null, k + ": " + text(x)));
      if (!ul.childElementCount) ul.append(el("li", null, "\u2013"));
      folded(dd, ul, ul.childElementCount, "entries");
    }
    return dd;
  }

  // Paths are relative to this page; each segment is encoded so "#", "%", " " stay file names.
  const href = (p) => String(p).split("/").map(encodeURIComponent).join("/");

  const options = data.options && typeof data.options === "object" ? data.options : {};
  const defaultSize = Array.isArray(options.size) ? options.size : null;

  // Names wrap after "/" (archive/entry) rather than mid-word; <wbr> elements, text nodes only.
  function nameLabel(name) {
    const span = el("span", "name");
    name.split("/").forEach((part, i, parts) => {
      span.append(part + (i < parts.length - 1 ? "/" : ""));
      if (i < parts.length - 1) span.append(el("wbr"));
    });
    return span;
  }

  function tileElement(a, kind) {
    const fig = el("figure", "tile");
    fig.dataset.kind = kind;

    const thumb = el("div", "thumb");
    if (a.png) {
      const img = el("img");
      img.loading = "lazy"; // before src, or the browser starts fetching at once
      img.decoding = "async";
      img.alt = String(a.name ?? "");
      const size = Array.isArray(a.size) ? a.size : defaultSize;
      if (size && size.length >= 2) {
        img.width = Number(size[0]) || 0;
        img.height = Number(size[1]) || 0;
        if (img.height > img.width) img.classList.add("tall");
      }
      img.src = href(a.png);
      thumb.append(img);
    } else {
      thumb.append(el("span", "nopng", "no thumbnail"));
    }

    const cap = el("figcaption");
    const head = el("div", "head");
    head.append(nameLabel(String(a.name ?? "")),
                el("span", "kind", kind === "error" && a.kind ? a.kind + " \u00b7 error" : kind));
    cap.append(head);
    if (a.source && a.source !== a.name) cap.append(el("div", "source", a.source));
    if (kind === "error") cap.append(el("p", "error", a.error || "failed"));
    if (a.view_error) cap.append(el("p", "error", "no view: " + a.view_error));
    if (a.facts && typeof a.facts === "object" && Object.keys(a.facts).length) {
      const dl = el("dl", "facts");
      for (const [k, v] of Object.entries(a.facts)) dl.append(el("dt", null, k), factValue(v));
      cap.append(dl);
    }
    const links = el("div", "links");
    if (a.view && kind !== "error") {
      const open = el("button", "open3d", kind === "texture" ? "view 1:1" : "3D view");
      open.type = "button";
      open.addEventListener("click", () => openView(a));
      thumb.classList.add("opens");
      thumb.title = "open the view";
      thumb.addEventListener("click", () => openView(a));
      links.append(open);
    }
    if (a.json) {
      const link = el("a", "meta", "metadata");
      link.href = href(a.json);
      links.append(link);
    }
    if (links.childElementCount) cap.append(links);
    fig.append(thumb, cap);
    return fig;
  }
  // What the filters need of an asset; its element is made later (see `make`).
  function tile(a) {
    // Lower-cased once; "\n" keeps a match from spanning two fields.
    const hay = scalars([a.name, a.source, a.facts], []).join("\n").toLowerCase();
    return { a, fig: null, kind: kindOf(a), hay, visible: true };
  }

  // The interactive view: the viewer (three.js and its code, one script for the whole gallery)
  // and the asset's view (its GLB or mip levels as a script) are loaded from disk when a view
  // first opens, with <script> elements: pages opened from file:// may not fetch().
  const viewer = document.getElementById("viewer");
  const viewHost = document.getElementById("viewhost");
  let openAsset = null, viewHandle = null, viewScript = null;
  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = src;
      s.onload = () => resolve(s);
      s.onerror = () => reject(new Error("cannot load " + src));
      document.head.append(s);
    });
  }
  let viewerLoaded = null;
  function viewStatus(text) {
    viewHost.replaceChildren(el("p", "nopng", text));
  }
  async function openView(a, fromHash) {
    closeView(true);
    openAsset = a;
    viewer.hidden = false;
    document.getElementById("viewname").textContent = String(a.name);
    viewStatus("loading\u2026");
    if (!fromHash) writeHash();
    try {
      viewerLoaded = viewerLoaded || loadScript("mshconv-viewer.js");
      await viewerLoaded;
      const script = await loadScript(href(a.view));
      if (openAsset !== a) { // another view opened meanwhile
        script.remove();
        if (window.mshconvViews) delete window.mshconvViews[a.name];
        return;
      }
      viewScript = script;
      const data = (window.mshconvViews || {})[a.name];
      if (!data) throw new Error(a.view + " holds no view of " + a.name);
      data.name = a.name;
      viewHandle = window.MshconvViewer.open(viewHost, data);
      window.mshconvView = viewHandle; // for tools and tests: the open view's state
    } catch (e) {
      if (openAsset === a) viewStatus(String(e.message || e));
    }
  }
  function closeView(keepHash) {
    if (viewHandle && viewHandle.dispose) viewHandle.dispose();
    viewHandle = null;
    window.mshconvView = null;
    if (viewScript) viewScript.remove();
    viewScript = null;
    if (openAsset && window.mshconvViews) delete window.mshconvViews[openAsset.name];
    const was = openAsset;
    openAsset = null;
    viewHost.replaceChildren();
    viewer.hidden = true;
    if (was && !keepHash) writeHash();
  }
  document.getElementById("viewclose").addEventListener("click", () => closeView());
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && openAsset) closeView();
  });

  // The first screen's tiles at once, the rest in slices between frames: with thousands of
  // assets, making every element before the first paint took seconds. #grid gets data-complete
  // when all are there.
  const tiles = assets.map(tile);
  const grid = document.getElementById("grid");
  let made = 0;
  function make(count) {
    const fragment = document.createDocumentFragment();
    const end = Math.min(tiles.length, made + count);
    for (; made < end; made++) {
      const t = tiles[made];
      t.fig = tileElement(t.a, t.kind);
      t.fig.hidden = !t.visible;
      fragment.append(t.fig);
    }
    grid.append(fragment);
    if (made === tiles.length) grid.dataset.complete = "true";
    return made < tiles.length;
  }
  const rest = () => make(200) && setTimeout(rest, 0);

  const count = new Map();
  for (const t of tiles) count.set(t.kind, (count.get(t.kind) || 0) + 1);
  const known = ["model", "map", "level", "texture"];
  const kinds = [
    ...known.filter((k) => count.has(k)),
    ...[...count.keys()].filter((k) => !known.includes(k) && k !== "error").sort(),
    ...(count.has("error") ? ["error"] : []),
  ];
  for (const k of ["all", ...kinds]) {
    const o = el("option", null, k === "all" ? "all kinds" : k + " (" + count.get(k) + ")");
    o.value = k;
    kindSelect.append(o);
  }

  const failed = count.get("error") || 0;
  document.getElementById("count").textContent =
    tiles.length + (tiles.length === 1 ? " asset" : " assets") + (failed ? ", " + failed + " failed" : "");
  const about = [];
  if (data.generator) about.push("generated by " + data.generator);
  for (const [k, v] of Object.entries(options)) about.push(k + ": " + text(v));
  document.getElementById("about").textContent = about.join(" \u00b7 ");

  function apply() {
    const q = search.value.trim().toLowerCase();
    const k = kindSelect.value;
    let n = 0;
    for (const t of tiles) {
      const visible = (k === "all" || t.kind === k) && (!q || t.hay.includes(q));
      t.visible = visible;
      if (t.fig) t.fig.hidden = !visible;
      if (visible) n++;
    }
    shown.textContent = n + " of " + tiles.length + " shown";
    document.getElementById("empty").hidden = n > 0 || tiles.length === 0;
  }

  // The hash mirrors the filters so that a link reproduces the view.
  function readHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ""));
    const q = p.get("q") || "";
    const k = p.get("kind") || "all";
    if (search.value !== q) search.value = q;
    kindSelect.value = kinds.includes(k) ? k : "all";
    apply();
    const v = p.get("view");
    const a = v && assets.find((x) => String(x.name) === v && x.view && x.status !== "error");
    if (a && a !== openAsset) openView(a, true);
    else if (!a && openAsset) closeView(true);
  }
  function writeHash() {
    const p = new URLSearchParams();
    if (search.value) p.set("q", search.value);
    if (kindSelect.value !== "all") p.set("kind", kindSelect.value);
    if (openAsset) p.set("view", String(openAsset.name));
    const h = p.toString();
    try {
      // replaceState: typing should not fill the history, and fires no hashchange.
      history.replaceState(null, "", location.href.split("#")[0] + (h ? "#" + h : ""));
    } catch (e) {
      location.hash = h; // some browsers refuse replaceState on file:// pages
    }
  }
  const changed = () => { apply(); writeHash(); };
  search.addEventListener("input", changed);
  kindSelect.addEventListener("change", changed);
  window.addEventListener("hashchange", readHash);
  readHash();
  // The rest once the first screen's thumbnails are in (they delay the load event).
  if (make(60)) window.addEventListener("load", () => setTimeout(rest, 0), { once: true });
})();
</script>
</body>
</html>
)html";

} // namespace

std::string gallery_html(const nlohmann::json& index) {
    const std::string data = script_safe_json(index);
    std::string html;
    html.reserve(kHead.size() + data.size() + kTail.size());
    html += kHead;
    html += data;
    html += kTail;
    return html;
}

} // namespace msh::conversion
