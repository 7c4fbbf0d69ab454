#!/usr/bin/env node
// The preview gallery (index.html of `batch --to preview`) in a real browser: headless Chromium
// opens it from file://, and the test checks that every thumbnail decodes, that there is one tile
// per index.json asset, that search, kind filter and URL hash show exactly the assets the index
// says they should (computed here from index.json, independently of the page), and that the page
// lays the tiles out as a grid; then it saves a full-page screenshot.
//
// usage: node tests/integration/gallery_browser.js DIR SCREENSHOT.png
// Needs the npm package playwright-core and Chromium (/usr/bin/chromium, or $CHROMIUM).
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

function die(message) {
    console.error("gallery_browser: " + message);
    process.exit(1);
}

// playwright-core from the usual module paths (NODE_PATH included), else from tools/node where
// install-deps.sh puts the project's npm tools.
function loadPlaywright() {
    const candidates = [
        "playwright-core",
        path.resolve(__dirname, "../../tools/node/node_modules/playwright-core"),
    ];
    for (const id of candidates) {
        try {
            return require(id);
        } catch (e) {
            if (e.code !== "MODULE_NOT_FOUND") throw e;
        }
    }
    die("playwright-core not found; install it with scripts/install-deps.sh or\n" +
        "  npm install --no-save --prefix tools/node playwright-core");
}

if (process.argv.length !== 4) die("usage: gallery_browser.js DIR SCREENSHOT.png");
const dir = path.resolve(process.argv[2]);
const screenshot = path.resolve(process.argv[3]);
const html = path.join(dir, "index.html");
if (!fs.existsSync(html)) die(`${html} does not exist`);
const index = JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8"));
const assets = index.assets;
if (!Array.isArray(assets) || assets.length === 0) die("index.json has no assets");
const total = assets.length;
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!fs.existsSync(chromiumPath)) die(`no Chromium at ${chromiumPath} (set $CHROMIUM)`);

// What the page should do, restated from the gallery's contract: failed assets form the kind
// "error"; search matches, case-insensitively, a substring of the name, the source or any scalar
// value inside facts.
const kindOf = (a) => (a.status === "error" ? "error" : String(a.kind || "other"));
function scalars(v, out) {
    if (v === null || v === undefined) return out;
    if (Array.isArray(v)) v.forEach((x) => scalars(x, out));
    else if (typeof v === "object") Object.values(v).forEach((x) => scalars(x, out));
    else out.push(String(v).toLowerCase());
    return out;
}
const fields = assets.map((a) => scalars([a.name, a.source, a.facts], []));
const nameFields = assets.map((a) => scalars([a.name, a.source], []));
const matching = (term, kind = "all", within = fields) =>
    assets
        .map((a, i) => i)
        .filter((i) => kind === "all" || kindOf(assets[i]) === kind)
        .filter((i) => within[i].some((f) => f.includes(term.trim().toLowerCase())));

// A term from one asset's name that matches some but not all assets; preferably several (so the
// filter must keep more than one tile) and at most half.
function pickNameTerm() {
    const seen = new Map();
    for (const a of assets) {
        for (const token of String(a.name || "").split(/[^\p{L}\p{N}_]+/u)) {
            if (token.length < 3 || seen.has(token.toLowerCase())) continue;
            seen.set(token.toLowerCase(), matching(token).length);
        }
    }
    const all = [...seen].filter(([, n]) => n >= 1 && n < total);
    const several = all.filter(([, n]) => n >= 2 && n <= total / 2).sort((x, y) => y[1] - x[1]);
    const pick = several[0] || all.sort((x, y) => x[1] - y[1])[0];
    return pick && pick[0];
}
// A facts value that matches more assets than the names and sources do: proves facts are searched.
function pickFactTerm() {
    for (const a of assets) {
        for (const v of scalars(a.facts, [])) {
            if (v.length < 3 || /^[\d.,\s-]+$/.test(v)) continue;
            const n = matching(v).length;
            if (n < total && n > matching(v, "all", nameFields).length) return v;
        }
    }
    return null;
}
// Mixed case, so that case-insensitivity is exercised.
const swapCase = (s) =>
    [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join("");

const failures = [];
const fail = (message) => failures.push(message);
const same = (got, want) => got.length === want.length && got.every((x, i) => x === want[i]);
const names = (ids) => ids.map((i) => JSON.stringify(assets[i].name)).join(", ");

async function visible(page) {
    return page.$$eval("#grid figure.tile", (tiles) =>
        tiles.map((t, i) => (t.getClientRects().length > 0 ? i : -1)).filter((i) => i >= 0));
}

async function expectView(page, what, want) {
    const got = await visible(page);
    if (!same(got, want)) {
        fail(`${what}: shows ${got.length} tiles [${names(got)}], expected ${want.length} ` +
             `[${names(want)}]`);
    }
    const line = (await page.textContent("#shown")).trim();
    const wantLine = `${want.length} of ${total} shown`;
    if (line !== wantLine) fail(`${what}: #shown says "${line}", expected "${wantLine}"`);
    return got.length;
}

async function hashParams(page) {
    const hash = await page.evaluate(() => location.hash);
    return new URLSearchParams(hash.replace(/^#/, ""));
}

function watch(page, label) {
    page.on("pageerror", (e) => fail(`${label}: script error: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && fail(`${label}: console error: ${m.text()}`));
    page.on("dialog", (d) => {
        fail(`${label}: a dialog opened ("${d.message()}"): asset data was run as code`);
        d.dismiss().catch(() => {});
    });
    page.on("request", (r) => {
        const u = r.url();
        if (!/^(file|data):/.test(u)) fail(`${label}: network request to ${u}`);
        if (/\/index\.json$/.test(u)) fail(`${label}: the page fetched index.json`);
    });
    page.on("requestfailed", (r) => fail(`${label}: ${r.url()} failed: ${r.failure().errorText}`));
}

// The page makes the first screen's tiles at once and the rest between frames.
async function complete(page) {
    await page.waitForSelector("#grid[data-complete]", { state: "attached", timeout: 30000 });
}

async function main() {
    const { chromium } = loadPlaywright();
    const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: ["--no-sandbox"], // CI runs as root
    });
    const summary = [];
    try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const url = pathToFileURL(html).href;
        const page = await context.newPage();
        watch(page, "index.html");
        await page.goto(url, { waitUntil: "load" });
        await complete(page);

        // One tile per asset, in index order, named by the asset; nothing injected by the data.
        const tiles = await page.$$eval("#grid figure.tile", (ts) =>
            ts.map((t) => ({ kind: t.dataset.kind, text: t.textContent })));
        if (tiles.length !== total) fail(`${tiles.length} tiles, index.json has ${total} assets`);
        tiles.forEach((t, i) => {
            const a = assets[i];
            if (!a) return;
            if (t.kind !== kindOf(a))
                fail(`tile ${i}: data-kind "${t.kind}", expected "${kindOf(a)}"`);
            if (!t.text.includes(String(a.name))) fail(`tile ${i} does not show the name ${a.name}`);
            if (a.status === "error" && a.error && !t.text.includes(a.error))
                fail(`tile ${i} (${a.name}) does not show its error`);
        });
        const structure = await page.evaluate(() => ({
            scripts: document.scripts.length,
            imgs: [...document.images].map((i) => i.alt),
        }));
        const withPng = assets.filter((a) => a.png).map((a) => String(a.name));
        if (structure.scripts !== 2)
            fail(`${structure.scripts} <script> elements, expected 2: data broke out of the page`);
        if (!same(structure.imgs, withPng))
            fail(`<img> alts [${structure.imgs}] are not the asset names [${withPng}]`);
        summary.push(`${tiles.length} tiles`);

        // Every thumbnail decodes. Lazy images load only near the viewport: make them eager and
        // scroll each into view, then wait for decode() of every one.
        const decoded = await page.evaluate(async () => {
            const imgs = [...document.images];
            for (const img of imgs) img.loading = "eager";
            for (const img of imgs) img.scrollIntoView({ block: "center" });
            window.scrollTo(0, 0);
            const timeout = new Promise((r) => setTimeout(r, 20000, "timeout"));
            return Promise.all(imgs.map(async (img) => {
                const r = await Promise.race([img.decode().then(() => "ok", () => "error"), timeout]);
                return { src: img.getAttribute("src"), r, w: img.naturalWidth, h: img.naturalHeight,
                         aw: img.getAttribute("width"), ah: img.getAttribute("height") };
            }));
        });
        for (const d of decoded) {
            if (d.r !== "ok" || d.w === 0) fail(`image ${d.src} does not decode (${d.r})`);
            else if (d.aw && (String(d.w) !== d.aw || String(d.h) !== d.ah))
                fail(`image ${d.src} is ${d.w}x${d.h} but the index says ${d.aw}x${d.ah}`);
        }
        summary.push(`${decoded.filter((d) => d.r === "ok" && d.w > 0).length} images decoded`);

        await expectView(page, "initial view", assets.map((a, i) => i));

        // Search by a term from a name, typed key by key.
        const term = pickNameTerm();
        if (!term) die("no name token matches some but not all assets; index too uniform to test");
        const typed = swapCase(term);
        await page.locator("#search").pressSequentially(typed);
        const want = matching(typed);
        await expectView(page, `search "${typed}"`, want);
        if ((await hashParams(page)).get("q") !== typed) fail(`hash does not hold q=${typed}`);
        summary.push(`search "${typed}" ${want.length}/${total}`);

        const factTerm = pickFactTerm();
        if (factTerm) {
            await page.locator("#search").fill(factTerm.toUpperCase());
            const n = await expectView(page, `search "${factTerm.toUpperCase()}"`,
                                       matching(factTerm));
            summary.push(`facts search "${factTerm.toUpperCase()}" ${n}/${total}`);
        }
        await page.locator("#search").fill("");
        await expectView(page, "search cleared", assets.map((a, i) => i));

        // The kind filter offers "all" and each kind present, and each shows exactly its assets.
        const kinds = [...new Set(assets.map(kindOf))];
        const offered = await page.$$eval("#kind option", (os) => os.map((o) => o.value));
        if (offered[0] !== "all" || !same([...offered.slice(1)].sort(), [...kinds].sort()))
            fail(`kind options [${offered}], expected "all" and [${kinds}]`);
        const perKind = [];
        for (const kind of kinds) {
            await page.selectOption("#kind", kind);
            const n = await expectView(page, `kind "${kind}"`, matching("", kind));
            if ((await hashParams(page)).get("kind") !== kind) fail(`hash does not hold kind=${kind}`);
            perKind.push(`${kind} ${n}`);
        }
        summary.push(`kinds ${perKind.join(", ")}`);

        // Both filters together, then cleared: everything back and an empty hash.
        const termKind = kindOf(assets[want[0]]);
        await page.selectOption("#kind", termKind);
        await page.locator("#search").fill(typed);
        const both = matching(typed, termKind);
        await expectView(page, `search "${typed}" in kind "${termKind}"`, both);
        await page.locator("#search").fill("");
        await page.selectOption("#kind", "all");
        await expectView(page, "filters cleared", assets.map((a, i) => i));
        const hash = await page.evaluate(() => location.hash);
        if (hash !== "" && hash !== "#") fail(`hash "${hash}" remains after clearing the filters`);

        // Editing the hash of an open page filters it too.
        const lastKind = kinds[kinds.length - 1];
        await page.evaluate((k) => { location.hash = "kind=" + encodeURIComponent(k); }, lastKind);
        const wantLast = `${matching("", lastKind).length} of ${total} shown`;
        await page.waitForFunction((w) => document.getElementById("shown").textContent.trim() === w,
                                   wantLast, { timeout: 5000 })
            .catch(() => {});
        await expectView(page, `hashchange to kind=${lastKind}`, matching("", lastKind));
        await page.evaluate(() => { location.hash = ""; });
        await page.waitForFunction((w) => document.getElementById("shown").textContent.trim() === w,
                                   `${total} of ${total} shown`, { timeout: 5000 })
            .catch(() => {});

        // A link with a hash reproduces the view.
        const preset = new URLSearchParams({ q: typed, kind: termKind }).toString();
        const linked = await context.newPage();
        watch(linked, "index.html#" + preset);
        await linked.goto(url + "#" + preset, { waitUntil: "load" });
        await complete(linked);
        const controls = await linked.evaluate(() => ({
            q: document.getElementById("search").value,
            kind: document.getElementById("kind").value,
        }));
        if (controls.q !== typed || controls.kind !== termKind)
            fail(`#${preset} set the controls to q="${controls.q}" kind="${controls.kind}"`);
        await expectView(linked, `preset #${preset}`, both);
        await linked.close();
        summary.push(`hash preset #${preset} ${both.length}/${total}`);

        // The grid: at 1280 px at least two columns, no overlapping tiles, no sideways scrolling.
        await expectView(page, "before the screenshot", assets.map((a, i) => i));
        await page.evaluate(() => window.scrollTo(0, 0));
        const layout = await page.evaluate(() => ({
            boxes: [...document.querySelectorAll("#grid figure.tile")].map((t) => {
                const r = t.getBoundingClientRect();
                return { x: r.left, y: r.top + window.scrollY, w: r.width, h: r.height };
            }),
            scrollWidth: document.documentElement.scrollWidth,
        }));
        const columns = new Set(layout.boxes.map((b) => Math.round(b.x))).size;
        if (total >= 2 && columns < 2) fail(`tiles form ${columns} column(s) at 1280 px`);
        if (layout.scrollWidth > 1280) fail(`the page is ${layout.scrollWidth} px wide at 1280 px`);
        layout.boxes.forEach((a, i) => {
            if (a.w < 50 || a.h < 50) fail(`tile ${i} is only ${a.w}x${a.h} px`);
            layout.boxes.slice(i + 1).forEach((b, k) => {
                const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
                const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
                if (dx > 1 && dy > 1) fail(`tiles ${i} and ${i + 1 + k} overlap`);
            });
        });
        await page.screenshot({ path: screenshot, fullPage: true });
        const png = fs.readFileSync(screenshot);
        const shotWidth = png.readUInt32BE(16);
        const shotHeight = png.readUInt32BE(20);
        if (png.toString("latin1", 1, 4) !== "PNG" || shotWidth !== 1280)
            fail(`screenshot ${screenshot} is not a 1280 px wide PNG`);
        summary.push(`${columns} columns, no overlap`);
        summary.push(`screenshot ${path.basename(screenshot)} ${shotWidth}x${shotHeight}`);
    } finally {
        await browser.close();
    }
    if (failures.length) {
        for (const f of failures) console.error("FAIL " + f);
        die(`${failures.length} check(s) failed`);
    }
    console.log("gallery ok: " + summary.join("; "));
}

main().catch((e) => die(e.stack || String(e)));
