#!/usr/bin/env node
// The gallery's interactive views (viewer/src/viewer.js) in a real browser: headless Chromium
// (WebGL through SwiftShader, no flag that relaxes file access) opens the gallery from file://,
// opens every model's, map's and a few textures' views by clicking their tiles and checks, with
// data read here from the assets' own files:
//   - every view opens, and the console holds no error;
//   - a model's silhouette at the default camera matches the alpha mask of its preview PNG
//     (IoU, every model; the lowest is reported);
//   - the LOD switch draws as many triangles as the GLB's meshes of that LOD hold;
//   - scrubbing the animation moves the nodes the GLB's channels target, and the picture;
//   - a map's class toggle changes the pixels of that class (towards the legend's colour when
//     on) and toggling back restores them;
//   - a texture shows each mip level at its size and its atlas pages;
//   - without WebGL the gallery's tiles still show and a view says why it cannot draw.
// Screenshots of a model, a map and a texture view go to OUT_DIR.
//
// With --page, a page of `mshconv view` opens by itself from disk, without errors, and (given
// the same asset's preview) shows the preview's silhouette. With --first-screen, a gallery shows
// its first screen (tiles, and the thumbnails inside the window decoded) within LIMIT_MS, the
// median of five loads.
//
// usage: node tests/integration/viewer_browser.js GALLERY_DIR OUT_DIR
//        node tests/integration/viewer_browser.js --page PAGE.html [PREVIEW.png]
//        node tests/integration/viewer_browser.js --first-screen GALLERY_DIR LIMIT_MS
// Needs the npm package playwright-core and Chromium (/usr/bin/chromium, or $CHROMIUM).
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

function die(message) {
  console.error("viewer_browser: " + message);
  process.exit(1);
}

function loadPlaywright() {
  for (const id of ["playwright-core",
                    path.resolve(__dirname, "../../tools/node/node_modules/playwright-core")]) {
    try {
      return require(id);
    } catch (e) {
      if (e.code !== "MODULE_NOT_FOUND") throw e;
    }
  }
  die("playwright-core not found; install it with scripts/install-deps.sh");
}

const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!fs.existsSync(chromiumPath)) die(`no Chromium at ${chromiumPath} (set $CHROMIUM)`);
// WebGL on the CPU; nothing here changes what a file:// page may load.
const GL_ARGS = ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"];

const failures = [];
const fail = (message) => failures.push(message);

function watch(page, label) {
  page.on("pageerror", (e) => fail(`${label}: script error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && fail(`${label}: console error: ${m.text()}`));
  page.on("request", (r) => {
    if (!/^(file|data|blob):/.test(r.url())) fail(`${label}: network request to ${r.url()}`);
  });
  page.on("requestfailed", (r) => fail(`${label}: ${r.url()} failed: ${r.failure().errorText}`));
}

// ---- an asset's view data and its GLB, read from the gallery's files ----------------------------
function readView(dir, asset) {
  const text = fs.readFileSync(path.join(dir, asset.view), "utf8");
  const at = text.indexOf("] = ");
  if (at < 0 || !text.endsWith(";\n")) throw new Error(`${asset.view}: not a view script`);
  return JSON.parse(text.slice(at + 4, -2));
}

function readGlb(base64) {
  const b = Buffer.from(base64, "base64");
  if (b.toString("latin1", 0, 4) !== "glTF") throw new Error("not a GLB");
  const jsonLength = b.readUInt32LE(12);
  const json = JSON.parse(b.toString("utf8", 20, 20 + jsonLength));
  json.bin = b.subarray(20 + jsonLength + 8);
  return json;
}

// A float accessor's elements (arrays of its components).
function floats(gltf, index) {
  const a = gltf.accessors[index];
  const v = gltf.bufferViews[a.bufferView];
  const n = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[a.type];
  const stride = v.byteStride || 4 * n;
  const base = (v.byteOffset || 0) + (a.byteOffset || 0);
  const out = [];
  for (let k = 0; k < a.count; k++) {
    const e = [];
    for (let c = 0; c < n; c++) e.push(gltf.bin.readFloatLE(base + k * stride + 4 * c));
    out.push(e);
  }
  return out;
}

// The first key time at which some channel's value differs from its value at time 0, and the
// nodes (their MSH index, from the node extras) whose channels differ there.
function movingKey(gltf) {
  const anim = gltf.animations[0];
  let best = null;
  for (const c of anim.channels) {
    const sampler = anim.samplers[c.sampler];
    const times = floats(gltf, sampler.input), values = floats(gltf, sampler.output);
    const k = values.findIndex((v) => v.some((x, i) => Math.abs(x - values[0][i]) > 1e-4));
    if (k > 0 && (!best || times[k][0] < best.time)) best = { time: times[k][0] };
  }
  if (!best) return null;
  const nodes = new Set();
  for (const c of anim.channels) {
    const sampler = anim.samplers[c.sampler];
    const times = floats(gltf, sampler.input), values = floats(gltf, sampler.output);
    const k = times.findIndex((t) => Math.abs(t[0] - best.time) < 1e-6);
    if (k > 0 && values[k].some((x, i) => Math.abs(x - values[0][i]) > 1e-4)) {
      const index = (gltf.nodes[c.target.node].extras || {}).index;
      if (index !== undefined) nodes.add(index);
    }
  }
  return { time: best.time, nodes: [...nodes] };
}

// Triangles of the meshes whose extras name (lod, group), counted from the GLB's accessors.
function trianglesOf(gltf, lod, group) {
  let n = 0;
  for (const mesh of gltf.meshes || []) {
    const x = mesh.extras || {};
    if (x.lod !== lod || x.group !== group) continue;
    for (const p of mesh.primitives) {
      if (p.mode !== undefined && p.mode !== 4) continue;
      const count = p.indices !== undefined ? gltf.accessors[p.indices].count
                                            : gltf.accessors[p.attributes.POSITION].count;
      n += count / 3;
    }
  }
  return n;
}

// ---- the page side --------------------------------------------------------------------------------
async function openView(page, asset, timeout = 60000) {
  await page.evaluate(() => document.getElementById("viewer").hidden ||
    document.getElementById("viewclose").click());
  const tile = page.locator("#grid figure.tile").nth(asset.index);
  await tile.scrollIntoViewIfNeeded();
  await tile.locator("button.open3d").click();
  // Open: ready, or a message other than "loading" (the gallery's or the viewer's).
  await page.waitForFunction(() => {
    const v = window.mshconvView;
    const status = document.querySelector("#viewhost .mv-status, #viewhost > p");
    const said = status && !status.hidden && status.textContent && !/loading/.test(status.textContent);
    return (v && v.ready) || said;
  }, null, { timeout });
  return page.evaluate(() => {
    const v = window.mshconvView;
    const status = document.querySelector("#viewhost .mv-status, #viewhost > p");
    return { ready: !!(v && v.ready), status: status && !status.hidden ? status.textContent : "" };
  });
}

// The canvas right after a render (the drawing buffer is only kept until the frame is shown),
// kept in the page under `name`.
function snapInPage(name) {
  const v = window.mshconvView;
  v.render();
  const c = v.renderer.domElement;
  const copy = document.createElement("canvas");
  copy.width = c.width;
  copy.height = c.height;
  const g = copy.getContext("2d");
  g.drawImage(c, 0, 0);
  window.__snaps = window.__snaps || {};
  window.__snaps[name] = { width: c.width, height: c.height,
                           data: g.getImageData(0, 0, c.width, c.height).data };
}
const snap = (page, name) => page.evaluate(snapInPage, name);

// Pixels that differ between two snapshots, and of those how many are nearer `rgb` in `a`.
function diffInPage({ a, b, rgb }) {
  const x = window.__snaps[a].data, y = window.__snaps[b].data;
  let changed = 0, nearer = 0;
  for (let i = 0; i < x.length; i += 4) {
    const d = Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) +
      Math.abs(x[i + 3] - y[i + 3]);
    if (d <= 6) continue;
    changed++;
    if (rgb) {
      const dist = (p) => Math.hypot(p[i] - rgb[0], p[i + 1] - rgb[1], p[i + 2] - rgb[2]);
      if (dist(x) < dist(y)) nearer++;
    }
  }
  return { changed, nearer };
}
const diff = (page, a, b, rgb = null) => page.evaluate(diffInPage, { a, b, rgb });

// IoU between the preview's alpha mask and the canvas sampled at the same picture points (the
// view fits the preview's picture into the canvas: centred, scaled by the shorter side).
async function silhouetteIoU(page, pngFile) {
  await page.evaluate(() => window.mshconvView.home());
  await snap(page, "home");
  return page.evaluate(async ({ png }) => {
    const img = new Image();
    img.src = png;
    await img.decode();
    const pc = document.createElement("canvas");
    pc.width = img.naturalWidth;
    pc.height = img.naturalHeight;
    const pg = pc.getContext("2d");
    pg.drawImage(img, 0, 0);
    const preview = pg.getImageData(0, 0, pc.width, pc.height).data;
    const canvas = window.__snaps.home;
    const [w, h] = [pc.width, pc.height];
    const s = Math.min(canvas.width / w, canvas.height / h);
    const ox = (canvas.width - w * s) / 2, oy = (canvas.height - h * s) / 2;
    let both = 0, either = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const a = preview[(y * w + x) * 4 + 3] >= 128;
        const cx = Math.floor(ox + (x + 0.5) * s), cy = Math.floor(oy + (y + 0.5) * s);
        const b = canvas.data[(cy * canvas.width + cx) * 4 + 3] >= 128;
        if (a && b) both++;
        if (a || b) either++;
      }
    }
    return either ? both / either : 1;
  }, {
    // A data: URL from here: a file:// image would taint the canvas it is read back from.
    png: "data:image/png;base64," + fs.readFileSync(pngFile).toString("base64"),
  });
}

async function checkModelLods(page, asset, gltf) {
  const lods = asset.facts.lods;
  const results = [];
  for (const lod of lods) {
    await page.selectOption("#viewhost select[title=LOD]", String(lod));
    const drawn = await page.evaluate(() => { window.mshconvView.render(); return window.mshconvView.renderer.info.render.triangles; });
    const want = trianglesOf(gltf, lod, 0);
    if (drawn !== want) fail(`${asset.name}: LOD ${lod} draws ${drawn} triangles, its GLB meshes hold ${want}`);
    results.push(drawn);
  }
  await page.selectOption("#viewhost select[title=LOD]", "0");
  if (new Set(results).size < 2) fail(`${asset.name}: the LOD switch does not change the triangles drawn (${results})`);
  return results;
}

async function checkModelGroups(page, asset, gltf) {
  const results = [];
  for (const group of asset.facts.groups) {
    await page.selectOption("#viewhost select[title=group]", String(group));
    const drawn = await page.evaluate(() => { window.mshconvView.render(); return window.mshconvView.renderer.info.render.triangles; });
    const want = trianglesOf(gltf, 0, group);
    if (drawn !== want) fail(`${asset.name}: group ${group} draws ${drawn} triangles, its GLB meshes hold ${want}`);
    results.push(drawn);
  }
  await page.selectOption("#viewhost select[title=group]", "0");
  if (new Set(results).size < 2) fail(`${asset.name}: the group switch does not change the triangles drawn (${results})`);
  return results;
}

async function checkAnimation(page, asset, gltf) {
  const key = movingKey(gltf);
  if (!key) return null; // keys that hold the first pose throughout: nothing to see move
  const indices = key.nodes;
  await snap(page, "rest");
  const moved = await page.evaluate(({ indices, time }) => {
    const v = window.mshconvView;
    const world = () => {
      const out = {};
      v.scene.updateMatrixWorld(true);
      v.scene.traverse((o) => {
        // The model's nodes carry their MSH index and key map in the glTF extras.
        if (o.userData.index !== undefined && o.userData.map_start !== undefined)
          out[o.userData.index] = o.matrixWorld.elements.slice();
      });
      return out;
    };
    const start = world();
    // The slider, as a user drags it, to the key where these nodes have left their first pose.
    const slider = v.animation.time;
    slider.value = String(time);
    slider.dispatchEvent(new Event("input"));
    const mid = world();
    const differs = (a, b) => a && b && a.some((x, k) => Math.abs(x - b[k]) > 1e-5);
    return { moved: indices.filter((i) => differs(start[i], mid[i])),
             found: indices.filter((i) => start[i] !== undefined) };
  }, { indices, time: key.time });
  await snap(page, "scrubbed");
  if (!moved.found.length) fail(`${asset.name}: none of the animated nodes ${indices} found in the view`);
  if (moved.moved.length !== indices.length)
    fail(`${asset.name}: scrubbing to ${key.time} s moves [${moved.moved}] of the nodes the keys move [${indices}]`);
  const { changed } = await diff(page, "rest", "scrubbed");
  if (!changed) fail(`${asset.name}: scrubbing the animation changes no pixel`);
  return { animated: indices.length, moved: moved.moved.length, changed, time: key.time };
}

// Each terrain layer's check box changes the picture, and back.
async function checkMapLayers(page, asset) {
  const out = [];
  for (const label of ["layer 1", "layer 2"]) {
    const box = page.locator("#viewhost label.mv-field", { hasText: label }).locator("input");
    if (!(await box.count())) { fail(`${asset.name}: no "${label}" check box`); continue; }
    await snap(page, "before");
    await box.click();
    await snap(page, "after");
    await box.click();
    await snap(page, "again");
    const { changed } = await diff(page, "before", "after");
    if (!changed) fail(`${asset.name}: ${label} off changes no pixel`);
    if ((await diff(page, "before", "again")).changed) fail(`${asset.name}: ${label} back on does not restore the picture`);
    out.push(`${label} ${changed} px`);
  }
  return out;
}

async function checkMapClasses(page, asset, view) {
  const boxes = await page.$$eval("#viewhost input[data-class]", (bs) => bs.map((b) => b.dataset.class));
  const want = asset.facts.areal_classes.map((c) => String(c.class));
  if (boxes.join() !== want.join()) fail(`${asset.name}: class toggles [${boxes}], the map has [${want}]`);
  const out = [];
  for (const id of boxes) {
    const colour = view.classes.find((c) => String(c.class) === id).colour;
    const rgb = [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16));
    await snap(page, "on");
    await page.click(`#viewhost input[data-class="${id}"]`);
    await snap(page, "off");
    await page.click(`#viewhost input[data-class="${id}"]`);
    await snap(page, "again");
    // Where the class is drawn, its colour is in the picture: on is nearer the legend's colour.
    const { changed, nearer } = await diff(page, "on", "off", rgb);
    if (!changed) fail(`${asset.name}: toggling class ${id} changes no pixel`);
    if ((await diff(page, "on", "again")).changed)
      fail(`${asset.name}: toggling class ${id} back does not restore the picture`);
    if (changed && nearer < 0.9 * changed)
      fail(`${asset.name}: class ${id} on is nearer its colour ${colour} at only ${nearer} of ${changed} changed pixels`);
    out.push(`class ${id} toggled: ${changed} px change, ${(100 * nearer / Math.max(1, changed)).toFixed(1)} % nearer its colour when on`);
  }
  return out;
}

async function checkTexture(page, asset, view) {
  const shown = [];
  for (let level = 0; level < view.levels.length; level++) {
    await page.selectOption("#viewhost select[title='mip level']", String(level));
    const size = await page.evaluate(async () => {
      const img = window.mshconvView.image;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight, img.width, img.height];
    });
    const l = view.levels[level];
    if (size[0] !== l.width || size[1] !== l.height || size[2] !== l.width || size[3] !== l.height)
      fail(`${asset.name}: level ${level} shows ${size}, expected ${l.width}x${l.height} at 1:1`);
    shown.push(`${size[0]}x${size[1]}`);
  }
  await page.selectOption("#viewhost select[title='mip level']", "0");
  const pages = await page.$$eval("#viewhost .mv-page", (ps) => ps.length);
  if (pages !== view.pages.length) fail(`${asset.name}: ${pages} page outlines, the texture has ${view.pages.length}`);
  if (view.pages.length) {
    const toggle = page.locator("#viewhost label.mv-field", { hasText: "atlas pages" }).locator("input");
    await toggle.click();
    const hidden = await page.$$eval("#viewhost .mv-page", (ps) => ps.length);
    await toggle.click();
    if (hidden !== 0) fail(`${asset.name}: ${hidden} page outlines with the pages turned off`);
  }
  return `${shown.join(" ")}, ${pages} pages`;
}

// Orbit (left drag), zoom (wheel) and pan (right drag) move the camera and the picture;
// wireframe and textures change the picture and back.
async function checkControls(page, asset) {
  const box = await page.locator("#viewhost canvas").boundingBox();
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const camera = () => page.evaluate(() => {
    const v = window.mshconvView;
    return [...v.camera.position.toArray(), ...v.controls.target.toArray()];
  });
  const moved = (a, b) => a.some((x, i) => Math.abs(x - b[i]) > 1e-4);
  const out = [];
  const gestures = [
    ["orbit", async () => {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx + 120, cy + 40, { steps: 6 });
      await page.mouse.up();
    }],
    ["zoom", async () => {
      await page.mouse.move(cx, cy);
      await page.mouse.wheel(0, -400);
    }],
    ["pan", async () => {
      await page.mouse.move(cx, cy);
      await page.mouse.down({ button: "right" });
      await page.mouse.move(cx + 80, cy - 60, { steps: 6 });
      await page.mouse.up({ button: "right" });
    }],
  ];
  for (const [what, gesture] of gestures) {
    await page.evaluate(() => window.mshconvView.home());
    const before = await camera();
    await snap(page, "before");
    await gesture();
    await page.waitForTimeout(50);
    const after = await camera();
    await snap(page, "after");
    const { changed } = await diff(page, "before", "after");
    if (!moved(before, after) || !changed) fail(`${asset.name}: ${what} moves the camera: ${moved(before, after)}, changes ${changed} px`);
    out.push(`${what} ${changed} px`);
  }
  await page.evaluate(() => window.mshconvView.home());
  for (const label of ["wireframe", "textures"]) {
    const box2 = page.locator("#viewhost label.mv-field", { hasText: label }).locator("input");
    await snap(page, "before");
    await box2.click();
    await snap(page, "after");
    await box2.click();
    await snap(page, "again");
    const { changed } = await diff(page, "before", "after");
    if (!changed) fail(`${asset.name}: ${label} changes no pixel`);
    if ((await diff(page, "before", "again")).changed) fail(`${asset.name}: ${label} twice does not restore the picture`);
    out.push(`${label} ${changed} px`);
  }
  return out.join(", ");
}

async function firstScreen(dir, limit) {
  const { chromium } = loadPlaywright();
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "index.html");
    // The first screen: the first animation frame at which tiles are there and every thumbnail
    // inside the window has decoded, timed in the page from the navigation's start (asking from
    // here would wait behind the page's own work and time that too).
    await page.addInitScript(() => {
      const check = (t) => {
        const imgs = [...document.querySelectorAll("#grid img")].filter((i) => {
          const r = i.getBoundingClientRect();
          return r.bottom > 0 && r.top < innerHeight;
        });
        if (imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0))
          window.__firstScreen = t;
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    // A browser's first page also waits for its compositor to start: warmed up on a blank page,
    // so that what is timed is the gallery.
    await page.goto("data:text/html,<p>warm</p>");
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    const times = [];
    for (let run = 0; run < 5; run++) {
      await page.goto(pathToFileURL(path.join(dir, "index.html")).href, { waitUntil: "load" });
      await page.waitForFunction(() => window.__firstScreen !== undefined, null, { timeout: 30000 });
      times.push(await page.evaluate(() => window.__firstScreen));
      await page.waitForSelector("#grid[data-complete]", { state: "attached", timeout: 30000 });
    }
    const tiles = await page.$$eval("#grid figure.tile", (t) => t.length);
    // The median of five loads: the machine is shared, one slow load is its load, not the page's.
    const median = [...times].sort((x, y) => x - y)[2];
    console.log(`first screen of the gallery of ${tiles} assets: ${times.map((t) => t.toFixed(0)).join(", ")} ms ` +
                `(median ${median.toFixed(0)} ms; limit ${limit} ms)`);
    if (median > limit) fail(`the first screen took ${median.toFixed(0)} ms, the median of 5 loads (limit ${limit})`);
  } finally {
    await browser.close();
  }
}

async function views(dir, outDir) {
  const index = JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8"));
  const assets = index.assets.map((a, i) => ({ ...a, index: i }));
  const withView = assets.filter((a) => a.status === "ok");
  const missing = withView.filter((a) => !a.view);
  if (missing.length) fail(`${missing.length} assets have no view (${missing[0].name}: ${missing[0].view_error})`);
  const { chromium } = loadPlaywright();
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: GL_ARGS });
  const summary = [];
  fs.mkdirSync(outDir, { recursive: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "index.html");
    await page.goto(pathToFileURL(path.join(dir, "index.html")).href, { waitUntil: "load" });
    await page.waitForSelector("#grid[data-complete]", { state: "attached", timeout: 30000 });
    const gl = await page.evaluate(() => !!document.createElement("canvas").getContext("webgl2"));
    if (!gl) die("this Chromium offers no WebGL 2 (SwiftShader); the views cannot be checked");

    let lowest = { iou: 2, name: "" }, sum = 0, n = 0, lodChecked = null, animChecked = null;
    let controlsChecked = null, groupChecked = null;
    const models = withView.filter((a) => a.kind === "model" && a.view);
    for (const a of models) {
      const r = await openView(page, a);
      if (!r.ready) { fail(`${a.name}: the view did not open (${r.status})`); continue; }
      const iou = await silhouetteIoU(page, path.join(dir, a.png));
      sum += iou; n++;
      if (iou < lowest.iou) lowest = { iou, name: a.name };
      const view = readView(dir, a);
      const gltf = readGlb(view.glb);
      if (!controlsChecked) controlsChecked = `${a.name}: ${await checkControls(page, a)}`;
      if (!groupChecked && a.facts.groups.length > 1) {
        groupChecked = `${a.name} group ${a.facts.groups.join("/")}: ${(await checkModelGroups(page, a, gltf)).join("/")} triangles`;
      }
      if (!lodChecked && a.facts.lods.length > 1) {
        lodChecked = `${a.name} LOD ${a.facts.lods.join("/")}: ${(await checkModelLods(page, a, gltf)).join("/")} triangles`;
      }
      if (!animChecked && (gltf.animations || []).length) {
        const r2 = await checkAnimation(page, a, gltf);
        if (r2) {
          animChecked = `${a.name}: scrubbed to ${r2.time.toFixed(3)} s, ${r2.moved} of the ${r2.animated} nodes its keys move there moved, ${r2.changed} px changed`;
          await page.screenshot({ path: path.join(outDir, "viewer_model.png") });
        }
      }
    }
    if (n !== models.length) fail(`${n} of ${models.length} models opened`);
    if (lowest.iou < 0.95) fail(`silhouette IoU ${lowest.iou.toFixed(4)} < 0.95 (${lowest.name})`);
    if (!lodChecked) fail("no model with several LODs to switch");
    if (!animChecked) fail("no animated model to scrub");
    summary.push(`${n} models opened; silhouette IoU vs preview: lowest ${lowest.iou.toFixed(4)} (${lowest.name}), mean ${(sum / Math.max(1, n)).toFixed(4)}`);
    if (!groupChecked) fail("no model with several groups to switch");
    summary.push(controlsChecked, lodChecked, groupChecked, animChecked);

    const maps = withView.filter((a) => a.kind === "map");
    let classes = [];
    for (const a of maps) {
      const r = await openView(page, a, 120000);
      if (!r.ready) { fail(`${a.name}: the view did not open (${r.status})`); continue; }
      const view = readView(dir, a);
      if (!classes.length) {
        classes = await checkMapClasses(page, a, view);
        summary.push(`${a.name}: ${[...(await checkMapLayers(page, a)), ...classes].join(", ")}`);
        await page.screenshot({ path: path.join(outDir, "viewer_map.png") });
      }
    }
    summary.push(`${maps.length} maps opened`);

    const textures = withView.filter((a) => a.kind === "texture");
    const sample = [...textures.filter((a) => a.facts.pages > 1).slice(0, 2), ...textures.slice(0, 2)];
    for (const a of sample) {
      const r = await openView(page, a);
      if (!r.ready) { fail(`${a.name}: the texture view did not open (${r.status})`); continue; }
      const t = await checkTexture(page, a, readView(dir, a));
      if (a === sample[0]) {
        await page.selectOption("#viewhost select[title=zoom]", "4");
        await page.screenshot({ path: path.join(outDir, "viewer_texture.png") });
        summary.push(`${a.name}: ${t}`);
      }
    }
    summary.push(`${sample.length} texture views`);
    // A link with #view=NAME opens that view.
    const linked = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    watch(linked, "index.html#view=");
    const target = models[models.length - 1];
    await linked.goto(pathToFileURL(path.join(dir, "index.html")).href + "#view=" +
                      encodeURIComponent(target.name), { waitUntil: "load" });
    await linked.waitForFunction(() => window.mshconvView && window.mshconvView.ready, null, { timeout: 60000 });
    const title = await linked.textContent("#viewname");
    if (title !== target.name) fail(`#view=${target.name} opened "${title}"`);
    await linked.close();
    summary.push(`#view=${target.name} opens its view`);

    await page.evaluate(() => document.getElementById("viewclose").click());
    const left = await page.evaluate(() => !document.getElementById("viewer").hidden || !!window.mshconvView);
    if (left) fail("closing the view leaves it open");
  } finally {
    await browser.close();
  }
  // Without WebGL: the tiles as before; a view says it cannot draw.
  const noGl = await chromium.launch({ executablePath: chromiumPath, headless: true,
                                       args: ["--no-sandbox", "--disable-3d-apis"] });
  try {
    const page = await noGl.newPage({ viewport: { width: 1280, height: 800 } });
    watch(page, "index.html without WebGL");
    await page.goto(pathToFileURL(path.join(dir, "index.html")).href, { waitUntil: "load" });
    await page.waitForSelector("#grid[data-complete]", { state: "attached", timeout: 30000 });
    const tiles = await page.$$eval("#grid figure.tile", (t) => t.length);
    if (tiles !== assets.length) fail(`without WebGL: ${tiles} tiles, expected ${assets.length}`);
    const model = withView.find((a) => a.kind === "model");
    const r = await openView(page, model);
    if (r.ready || !/WebGL/.test(r.status)) fail(`without WebGL the view says "${r.status}"`);
    summary.push(`without WebGL: ${tiles} tiles, the view says "${r.status}"`);
  } finally {
    await noGl.close();
  }
  console.log(summary.join("\n"));
}

// A page of `mshconv view` opened in headless Chromium, its view ready: `job(page, kind)`.
async function withViewPage(file, job) {
  const { chromium } = loadPlaywright();
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: GL_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    watch(page, path.basename(file));
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    await page.waitForFunction(() => window.mshconvView && window.mshconvView.ready, null, { timeout: 120000 });
    await job(page, await page.evaluate(() => window.mshconvView.kind));
  } finally {
    await browser.close();
  }
}

async function viewPage(file, previewPng) {
  await withViewPage(file, async (page, kind) => {
    let line = `${path.basename(file)}: the ${kind} view opened`;
    if (previewPng) {
      const iou = await silhouetteIoU(page, previewPng);
      if (iou < 0.95) fail(`${path.basename(file)}: silhouette IoU ${iou.toFixed(4)} < 0.95 against ${previewPng}`);
      line += `, silhouette IoU vs its preview ${iou.toFixed(4)}`;
    }
    console.log(line);
  });
}

// A level's page: the camera brought close to each kind of object in turn, a click on its middle
// names it (the view's `picked`: its node name and kind).
async function pickPage(file) {
  await withViewPage(file, async (page, kind) => {
    if (kind !== "level") fail(`${path.basename(file)}: a ${kind} view, expected level`);
    let picked = 0;
    for (const wanted of ["building", "unit", "vegetation", "rock"]) {
      const target = await page.evaluate((wanted) => {
        const h = window.mshconvView;
        let chosen = null;
        h.gltf.scene.traverse((o) => {
          const l = o.userData.mshconv_level;
          if (!chosen && l && l.kind === wanted && l.record !== undefined) chosen = o;
        });
        if (!chosen) return null;
        const V = h.camera.position.constructor;
        const lo = new V(Infinity, Infinity, Infinity), hi = new V(-Infinity, -Infinity, -Infinity);
        chosen.updateWorldMatrix(true, true);
        chosen.traverse((m) => {
          if (!m.isMesh || !m.visible) return;
          m.geometry.computeBoundingBox();
          for (const c of [m.geometry.boundingBox.min, m.geometry.boundingBox.max]) {
            const w = c.clone().applyMatrix4(m.matrixWorld);
            lo.min(w);
            hi.max(w);
          }
        });
        if (!isFinite(lo.x)) return null;
        const centre = lo.clone().add(hi).multiplyScalar(0.5);
        const size = Math.max(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, 1);
        h.camera.position.copy(centre).add(new V(size * 1.2, size * 1.5, size * 1.8));
        h.controls.target.copy(centre);
        h.controls.update();
        h.render();
        // Points to click: the middles of the object's first triangles (a thin post has no
        // surface at its box's middle).
        const r = h.renderer.domElement.getBoundingClientRect();
        const points = [];
        chosen.traverse((m) => {
          if (!m.isMesh || !m.visible || points.length >= 12) return;
          const pos = m.geometry.attributes.position, index = m.geometry.index;
          for (let t = 0; t < 12 && 3 * t + 2 < (index ? index.count : pos.count); ++t) {
            const c = new V();
            for (let k = 0; k < 3; ++k) {
              const i = index ? index.getX(3 * t + k) : 3 * t + k;
              c.add(new V(pos.getX(i), pos.getY(i), pos.getZ(i)).applyMatrix4(m.matrixWorld));
            }
            const p = c.multiplyScalar(1 / 3).project(h.camera);
            points.push([r.left + (p.x + 1) / 2 * r.width, r.top + (1 - p.y) / 2 * r.height]);
          }
        });
        return { name: chosen.name, points };
      }, wanted);
      if (!target) continue;
      let got = null;
      for (const [x, y] of target.points) {
        await page.mouse.click(x, y);
        got = await page.evaluate(() => window.mshconvView.picked);
        if (got && got.name === target.name) break;
      }
      if (!got || got.name !== target.name || got.kind !== wanted) {
        fail(`${path.basename(file)}: a click on ${target.name} picked ${JSON.stringify(got)}`);
        continue;
      }
      picked++;
      // The info line names it once the next frame is drawn.
      const named = await page.waitForFunction(([name, kind]) => {
        const t = document.querySelector(".mv-info").textContent;
        return t.includes(name) && t.includes(kind);
      }, [target.name, wanted], { timeout: 5000 }).then(() => true, () => false);
      if (!named)
        fail(`${path.basename(file)}: the info line says "${await page.textContent(".mv-info")}" after picking ${target.name}`);
    }
    if (picked < 2) fail(`${path.basename(file)}: only ${picked} kinds of object picked`);
    console.log(`${path.basename(file)}: the level view opened, ${picked} kinds of object picked by a click`);
  });
}

const argv = process.argv.slice(2);
const usage = "usage: viewer_browser.js GALLERY_DIR OUT_DIR | --page PAGE.html [PREVIEW.png] | --pick PAGE.html | " +
  "--first-screen GALLERY_DIR LIMIT_MS";
let job;
if (argv[0] === "--first-screen" && argv.length === 3) job = firstScreen(path.resolve(argv[1]), Number(argv[2]));
else if (argv[0] === "--pick" && argv.length === 2) job = pickPage(path.resolve(argv[1]));
else if (argv[0] === "--page" && (argv.length === 2 || argv.length === 3))
  job = viewPage(path.resolve(argv[1]), argv[2] && path.resolve(argv[2]));
else if (argv.length === 2 && !argv[0].startsWith("--")) job = views(path.resolve(argv[0]), path.resolve(argv[1]));
else die(usage);
job.then(() => {
  if (failures.length) {
    for (const f of failures) console.error("FAIL " + f);
    die(`${failures.length} check(s) failed`);
  }
  console.log("viewer ok");
}, (e) => die(e.stack || String(e)));
