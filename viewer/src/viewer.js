// The interactive view of one asset of the preview gallery or of `mshconv view`: a model or map
// (its GLB, carried as base64 by the asset's script) drawn with three.js, or a texture's mip
// levels and atlas pages at 1:1. Bundled with three.js into one classic script (build.mjs), as
// pages opened from file:// may not load module scripts.
//
// window.MshconvViewer.open(host, asset) builds the view inside `host` and returns its handle.
// asset: {kind: "model"|"map"|"texture", name, glb (base64), camera (the preview's view: eye,
// right, up, forward, focal, principal, size, projection; glTF axes), classes (maps: [{class,
// colour}]), levels (textures: [{width, height, png (base64)}]), pages ([[x, y, w, h]])}.
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function bytesOf(base64) {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function labelled(control, text) {
  const label = el("label", "mv-field");
  label.append(control, document.createTextNode(" " + text));
  return label;
}

function checkbox(text, checked, onChange) {
  const box = el("input");
  box.type = "checkbox";
  box.checked = checked;
  box.addEventListener("change", () => onChange(box.checked));
  const label = labelled(box, text);
  return { label, box };
}

function select(title, values, format, onChange) {
  const s = el("select");
  s.title = title;
  for (const v of values) {
    const o = el("option", null, format(v));
    o.value = String(v);
    s.append(o);
  }
  s.addEventListener("change", () => onChange(s.value));
  return s;
}

// The view's own look, added once to the page that opens it (the gallery or a `view` page).
const STYLE = `
.mv { position: relative; display: flex; flex-direction: column; min-height: 0; background: #23272e;
  color: #e8eaed; font: 13px/1.4 system-ui, sans-serif; }
.mv-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; padding: 8px 12px;
  background: #2d323a; border-bottom: 1px solid #3b414b; }
.mv-bar select, .mv-bar button, .mv-bar input { font: inherit; }
.mv-bar select, .mv-bar button { color: #1c2026; background: #f2f3f5; border: 1px solid #9aa3ad;
  border-radius: 4px; padding: 2px 8px; }
.mv-field { display: inline-flex; align-items: center; gap: 4px; white-space: nowrap; }
.mv-anim { display: inline-flex; align-items: center; gap: 6px; }
.mv-anim input[type=range] { width: 14em; }
.mv-time { font-variant-numeric: tabular-nums; min-width: 4.5em; }
.mv-legend { display: inline-flex; flex-wrap: wrap; gap: 4px 12px; }
.mv-swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px;
  border: 1px solid #fff8; border-radius: 2px; vertical-align: -1px; }
.mv-canvas { position: relative; flex: 1; min-height: 0;
  background: radial-gradient(circle at 50% 40%, #4a515c, #23272e); }
.mv-canvas canvas { position: absolute; inset: 0; width: 100%; height: 100%; display: block;
  touch-action: none; }
.mv-texture { flex: 1; min-height: 0; overflow: auto; padding: 16px; }
.mv-stage { position: relative; display: inline-block; line-height: 0;
  background: repeating-conic-gradient(#cfd3d8 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
.mv-stage img { image-rendering: pixelated; display: block; }
.mv-page { position: absolute; box-sizing: border-box; border: 1px solid #ff3b8b;
  box-shadow: 0 0 0 1px #0008; }
.mv-info { padding: 4px 12px; color: #b8bec6; font-size: 12px; background: #2d323a;
  font-variant-numeric: tabular-nums; }
.mv-status { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%);
  padding: 10px 16px; border-radius: 6px; background: #000a; }
`;
function addStyle() {
  if (document.getElementById("mshconv-viewer-style")) return;
  const style = document.createElement("style");
  style.id = "mshconv-viewer-style";
  style.textContent = STYLE;
  document.head.append(style);
}

// ---- models and maps ---------------------------------------------------------------------------

// The lens of the preview's camera (conversion/preview_image.cpp records it per view), fitted into a
// canvas of width x height pixels as the preview picture would be (centred, scaled by the shorter
// side): the same rays through the same picture points, so the default view shows the
// preview's silhouette.
function fittedLens(camera, width, height) {
  const [w, h] = camera.size;
  const s = Math.min(width / w, height / h);
  return {
    focal: camera.focal * s,
    cx: (width - w * s) / 2 + camera.principal[0] * s,
    cy: (height - h * s) / 2 + camera.principal[1] * s,
  };
}

// A camera whose projection is the preview's pinhole (or orthographic) lens: three's cameras
// only know a symmetric frustum, so the matrix is set here whenever the size, the zoom (orbit
// controls on an orthographic camera) or the depth range changes.
function lensCamera(preview) {
  const ortho = preview.projection === "orthographic";
  const cam = ortho ? new THREE.OrthographicCamera() : new THREE.PerspectiveCamera();
  cam.lens = { focal: preview.focal, cx: preview.size[0] / 2, cy: preview.size[1] / 2 };
  cam.viewSize = [preview.size[0], preview.size[1]];
  cam.updateProjectionMatrix = function () {
    const [W, H] = this.viewSize;
    const f = this.lens.focal * (ortho ? this.zoom : 1);
    const { cx, cy } = this.lens;
    const n = this.near, fa = this.far;
    const m = this.projectionMatrix;
    if (ortho) {
      m.set(2 * f / W, 0, 0, 2 * cx / W - 1,
            0, 2 * f / H, 0, 1 - 2 * cy / H,
            0, 0, -2 / (fa - n), -(fa + n) / (fa - n),
            0, 0, 0, 1);
      // OrbitControls pans an orthographic camera by these extents.
      this.left = -cx / this.lens.focal;
      this.right = (W - cx) / this.lens.focal;
      this.top = cy / this.lens.focal;
      this.bottom = -(H - cy) / this.lens.focal;
    } else {
      m.set(2 * f / W, 0, 1 - 2 * cx / W, 0,
            0, 2 * f / H, 2 * cy / H - 1, 0,
            0, 0, -(fa + n) / (fa - n), -2 * fa * n / (fa - n),
            0, 0, -1, 0);
      this.fov = THREE.MathUtils.radToDeg(2 * Math.atan(H / 2 / f)); // OrbitControls' pan speed
    }
    this.projectionMatrixInverse.copy(m).invert();
  };
  return cam;
}

// Which of the exported glTF's parts a three.js object draws: the mesh's extras (lod, group) for
// models; for maps the node's mshconv kind (terrain, terrain_layer2, arealmap_draped, ...).
function partsOf(gltf) {
  const json = gltf.parser.json;
  const meshes = [];
  gltf.scene.traverse((o) => {
    if (!o.isMesh && !o.isLine && !o.isLineSegments && !o.isPoints) return;
    const a = gltf.parser.associations.get(o) || {};
    const meshDef = a.meshes !== undefined ? json.meshes[a.meshes] : null;
    const extras = (meshDef && meshDef.extras) || {};
    meshes.push({ object: o, lod: extras.lod, group: extras.group, kind: null, classId: null });
  });
  // Map parts: each node's mshconv kind holds for its meshes and its children's.
  const kinds = new Map();
  (json.nodes || []).forEach((n, i) => {
    const kind = n.extras && n.extras.mshconv && n.extras.mshconv.kind;
    if (kind) kinds.set(i, kind);
  });
  const objectKind = new Map();
  const pending = [...kinds.entries()].map(([i, kind]) =>
    gltf.parser.getDependency("node", i).then((node) => objectKind.set(node, kind)));
  return Promise.all(pending).then(() => {
    for (const m of meshes) {
      for (let o = m.object; o && !m.kind; o = o.parent) m.kind = objectKind.get(o) || null;
      let name = "";
      for (let o = m.object; o; o = o.parent) name = o.name + "/" + name;
      if (m.kind === "arealmap") m.kind = /outlines/i.test(name) ? "areal_outlines" : "areal_areas";
      const mat = Array.isArray(m.object.material) ? m.object.material[0] : m.object.material;
      if (mat && mat.userData && mat.userData.class_id !== undefined) m.classId = mat.userData.class_id;
    }
    return meshes;
  });
}

const HIDDEN_LAYER = 1; // objects on it are skipped by the camera but keep their children drawn

function sceneView(host, asset, status) {
  const canvasBox = el("div", "mv-canvas");
  const bar = el("div", "mv-bar");
  const info = el("div", "mv-info");
  host.append(bar, canvasBox, info);
  const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0x000000, 0);
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  canvasBox.append(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x606470, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(0.5, 1, 0.8);
  scene.add(sun);
  const camera = lensCamera(asset.camera);
  camera.layers.set(0);
  const controls = new OrbitControls(camera, renderer.domElement);
  const handle = { kind: asset.kind, renderer, scene, camera, controls, ready: false };
  let mixer = null, clip = null, playing = false, last = 0, frame = 0;
  let bounds = new THREE.Sphere(new THREE.Vector3(), 1);

  const render = () => {
    const d = camera.position.distanceTo(bounds.center);
    camera.near = Math.max(bounds.radius * 1e-3, d - bounds.radius * 2);
    camera.far = d + bounds.radius * 4;
    camera.updateProjectionMatrix();
    renderer.render(scene, camera);
    info.textContent = (handle.pickedText ? handle.pickedText + " \u00b7 " : "") +
      renderer.info.render.triangles + " triangles drawn";
    handle.triangles = renderer.info.render.triangles;
  };
  handle.render = render;
  const schedule = () => {
    if (frame) return;
    frame = requestAnimationFrame((t) => {
      frame = 0;
      if (playing && mixer) {
        mixer.update(last ? (t - last) / 1000 : 0);
        last = t;
        handle.setTimeInput(mixer.time % clip.duration);
        schedule();
      }
      render();
    });
  };
  handle.schedule = schedule;
  controls.addEventListener("change", schedule);

  const resize = () => {
    const r = canvasBox.getBoundingClientRect();
    const W = Math.max(1, Math.floor(r.width)), H = Math.max(1, Math.floor(r.height));
    renderer.setSize(W, H, false);
    const px = renderer.getPixelRatio();
    camera.viewSize = [W * px, H * px];
    camera.lens = fittedLens(asset.camera, W * px, H * px);
    render();
  };
  const observer = new ResizeObserver(resize);

  // The preview's camera: its eye and orientation, the orbit's centre where its axis passes the
  // bounds' centre.
  const home = () => {
    const c = asset.camera;
    const eye = new THREE.Vector3(...c.eye);
    const right = new THREE.Vector3(...c.right), up = new THREE.Vector3(...c.up);
    const forward = new THREE.Vector3(...c.forward);
    camera.position.copy(eye);
    camera.quaternion.setFromRotationMatrix(
      new THREE.Matrix4().makeBasis(right, up, forward.clone().negate()));
    camera.zoom = 1;
    const along = Math.max(bounds.radius * 0.1, bounds.center.clone().sub(eye).dot(forward));
    controls.target.copy(eye).addScaledVector(forward, along);
    render();
  };
  handle.home = home;

  const loader = new GLTFLoader();
  // GLTFLoader decodes images with ImageBitmapLoader, which fetch()es their blob URLs; the image
  // element loader needs no fetch.
  loader.register((parser) => {
    parser.textureLoader = new THREE.TextureLoader(parser.options.manager);
    return { name: "mshconv_image_elements" };
  });
  const bytes = bytesOf(asset.glb);
  let disposed = false;
  loader.parse(bytes.buffer, "", (gltf) => {
    partsOf(gltf).then((parts) => {
      if (disposed) return; // closed while it loaded
      scene.add(gltf.scene);
      handle.gltf = gltf;
      handle.parts = parts;
      const materials = new Set();
      for (const p of parts) {
        for (const m of [].concat(p.object.material || [])) materials.add(m);
      }
      const maps = new Map([...materials].map((m) => [m, m.map]));

      if (asset.kind === "map" || asset.kind === "level") buildMapControls(parts, schedule, bar, asset);
      else buildModelControls(parts, schedule, bar);
      if (asset.kind === "level") {
        hideUnshownParts(gltf.scene);
        enablePicking(handle, renderer.domElement, camera, gltf.scene, schedule);
      }

      bar.append(checkbox("wireframe", false, (on) => {
        for (const m of materials) m.wireframe = on;
        schedule();
      }).label);
      bar.append(checkbox("textures", true, (on) => {
        for (const m of materials) {
          m.map = on ? maps.get(m) : null;
          m.needsUpdate = true;
        }
        schedule();
      }).label);

      if (gltf.animations.length) {
        clip = gltf.animations[0];
        mixer = new THREE.AnimationMixer(gltf.scene);
        mixer.clipAction(clip).play();
        mixer.setTime(0);
        const play = el("button", "mv-play", "play");
        const time = el("input");
        time.type = "range";
        time.min = "0";
        time.max = String(clip.duration);
        time.step = "any";
        time.value = "0";
        time.title = "animation time";
        const seconds = el("span", "mv-time", "0.00 s");
        handle.setTimeInput = (t) => {
          time.value = String(t);
          seconds.textContent = t.toFixed(2) + " s";
        };
        play.addEventListener("click", () => {
          playing = !playing;
          play.textContent = playing ? "pause" : "play";
          last = 0;
          schedule();
        });
        time.addEventListener("input", () => {
          playing = false;
          play.textContent = "play";
          mixer.setTime(Number(time.value));
          handle.setTimeInput(Number(time.value));
          schedule();
        });
        const group = el("span", "mv-anim");
        group.append(play, time, seconds);
        bar.append(group);
        handle.animation = { duration: clip.duration, play, time };
      }
      const reset = el("button", null, "reset view");
      reset.addEventListener("click", home);
      bar.append(reset);

      // Bounds of what is drawn at the rest pose, for the orbit's centre and the depth range.
      const box = new THREE.Box3();
      for (const p of parts) if (p.object.layers.test(camera.layers)) box.expandByObject(p.object);
      if (!box.isEmpty()) box.getBoundingSphere(bounds);
      observer.observe(canvasBox);
      resize();
      home();
      handle.ready = true;
      status("");
    });
  }, (error) => status("cannot read the model: " + (error && error.message ? error.message : error)));

  handle.dispose = () => {
    disposed = true;
    observer.disconnect();
    if (frame) cancelAnimationFrame(frame);
    controls.dispose();
    renderer.dispose();
    renderer.forceContextLoss();
  };
  return handle;
}

// A level's parts of a hidden class (armour, internals, ammo), as KHR_node_visibility says: the
// loader does not read it, the node's extras repeat it.
function hideUnshownParts(root) {
  root.traverse((o) => {
    const level = o.userData && o.userData.mshconv_level;
    if (level && level.part !== undefined && level.shown === false) o.visible = false;
  });
}

// A click on a level's object (a press and release without a drag) names it and its kind in the
// info line; `handle.picked` keeps what was named, for tests and tools.
function enablePicking(handle, canvas, camera, root, schedule) {
  const ray = new THREE.Raycaster();
  let down = null;
  canvas.addEventListener("pointerdown", (e) => { down = [e.clientX, e.clientY]; });
  canvas.addEventListener("pointerup", (e) => {
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 4) return;
    const r = canvas.getBoundingClientRect();
    const at = new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1,
      -((e.clientY - r.top) / r.height) * 2 + 1);
    ray.setFromCamera(at, camera);
    handle.picked = null;
    for (const hit of ray.intersectObject(root, true)) {
      if (!hit.object.visible || !hit.object.layers.test(camera.layers)) continue;
      let o = hit.object;
      while (o && !(o.userData.mshconv_level && o.userData.mshconv_level.kind !== undefined &&
                    o.userData.mshconv_level.record !== undefined)) o = o.parent;
      if (!o) break; // the ground or an overlay is nearer than any object
      const level = o.userData.mshconv_level;
      handle.picked = { name: o.name, kind: level.kind, record: level.record,
        reference: level.reference };
      break;
    }
    const p = handle.picked;
    handle.pickedText = p ? p.name + " \u2014 " + p.kind + " (" + p.reference + ")" : "";
    schedule();
  });
}

function show(part, on) {
  if (on) part.object.layers.set(0);
  else part.object.layers.set(HIDDEN_LAYER);
}

function buildModelControls(parts, schedule, bar) {
  const slots = parts.filter((p) => p.lod !== undefined);
  const lods = [...new Set(slots.map((p) => p.lod))].sort((a, b) => a - b);
  const groups = [...new Set(slots.map((p) => p.group))].sort((a, b) => a - b);
  const chosen = { lod: lods.includes(0) ? 0 : lods[0], group: groups.includes(0) ? 0 : groups[0] };
  const apply = () => {
    for (const p of slots) show(p, p.lod === chosen.lod && p.group === chosen.group);
    schedule();
  };
  bar.append(labelled(select("LOD", lods, (v) => "LOD " + v, (v) => {
    chosen.lod = Number(v);
    apply();
  }), ""));
  bar.append(labelled(select("group", groups, (v) => "group " + v, (v) => {
    chosen.group = Number(v);
    apply();
  }), ""));
  apply();
}

function buildMapControls(parts, schedule, bar, asset) {
  const of = (kind) => parts.filter((p) => p.kind === kind);
  const toggle = (text, kind, on) => {
    const items = of(kind);
    if (!items.length) return;
    items.forEach((p) => show(p, on));
    bar.append(checkbox(text, on, (v) => {
      items.forEach((p) => show(p, v));
      schedule();
    }).label);
  };
  toggle("layer 1", "terrain", true);
  toggle("layer 2", "terrain_layer2", true);
  toggle("outlines", "areal_outlines", false);
  toggle("areal polygons", "areal_areas", false);
  const draped = of("arealmap_draped");
  const classes = [...new Set(draped.filter((p) => p.classId !== null).map((p) => p.classId))]
    .sort((a, b) => a - b);
  const other = draped.filter((p) => p.classId === null); // the outline of the draped layer
  if (other.length) {
    bar.append(checkbox("areal outline", true, (v) => {
      other.forEach((p) => show(p, v));
      schedule();
    }).label);
  }
  const legend = el("div", "mv-legend");
  const colours = new Map((asset.classes || []).map((c) => [c.class, c.colour]));
  // The classes over the ground as opaque as in the thumbnail (its legend's fill_alpha), which
  // the export's lighter draped layer would otherwise make look paler.
  const alphas = new Map((asset.classes || []).map((c) => [c.class, c.fill_alpha]));
  for (const p of draped) {
    const alpha = alphas.get(p.classId);
    if (typeof alpha !== "number") continue;
    for (const m of [].concat(p.object.material || [])) m.opacity = alpha;
  }
  for (const id of classes) {
    const swatch = el("span", "mv-swatch");
    swatch.style.background = colours.get(id) || "#888";
    const c = checkbox("", true, (v) => {
      draped.filter((p) => p.classId === id).forEach((p) => show(p, v));
      schedule();
    });
    c.box.dataset.class = String(id);
    c.label.append(swatch, document.createTextNode("class " + id));
    legend.append(c.label);
  }
  if (classes.length) bar.append(legend);
}

// ---- textures ----------------------------------------------------------------------------------

function textureView(host, asset, status) {
  const bar = el("div", "mv-bar");
  const box = el("div", "mv-texture");
  const info = el("div", "mv-info");
  host.append(bar, box, info);
  const levels = asset.levels || [];
  const stage = el("div", "mv-stage");
  const img = el("img");
  img.alt = String(asset.name || "");
  stage.append(img);
  box.append(stage);
  const handle = { kind: "texture", ready: false, image: img };
  let level = 0, zoom = 1, pages = true;
  const draw = () => {
    const l = levels[level];
    img.src = "data:image/png;base64," + l.png;
    img.width = l.width * zoom;
    img.height = l.height * zoom;
    stage.querySelectorAll(".mv-page").forEach((p) => p.remove());
    if (pages) {
      // Page rectangles are in level-0 texels.
      const k = (l.width / levels[0].width) * zoom;
      (asset.pages || []).forEach(([x, y, w, h], i) => {
        const r = el("div", "mv-page");
        r.title = "page " + i + ": " + x + "," + y + " " + w + "x" + h;
        Object.assign(r.style, { left: x * k + "px", top: y * k + "px", width: w * k + "px",
                                 height: h * k + "px" });
        stage.append(r);
      });
    }
    info.textContent = "level " + level + ": " + l.width + " x " + l.height + " texels, shown " +
      zoom + ":1" + ((asset.pages || []).length ? ", " + asset.pages.length + " atlas pages" : "");
  };
  bar.append(select("mip level", levels.map((l, i) => i),
                    (i) => "level " + i + " (" + levels[i].width + "x" + levels[i].height + ")",
                    (v) => { level = Number(v); draw(); }));
  bar.append(select("zoom", [1, 2, 4, 8], (z) => z + ":1", (v) => { zoom = Number(v); draw(); }));
  if ((asset.pages || []).length)
    bar.append(checkbox("atlas pages", true, (v) => { pages = v; draw(); }).label);
  if (!levels.length) {
    status("no levels to show");
    return handle;
  }
  img.addEventListener("load", () => { handle.ready = true; status(""); }, { once: true });
  draw();
  handle.dispose = () => {};
  return handle;
}

function webglAvailable() {
  try {
    const c = document.createElement("canvas");
    return !!(c.getContext("webgl2") || c.getContext("webgl"));
  } catch (e) {
    return false;
  }
}

function open(host, asset) {
  addStyle();
  host.replaceChildren();
  host.classList.add("mv");
  const status = el("div", "mv-status", "loading\u2026");
  const setStatus = (text) => {
    status.textContent = text;
    status.hidden = !text;
  };
  let handle;
  if (asset.kind === "texture") {
    handle = textureView(host, asset, setStatus);
  } else if (!webglAvailable()) {
    setStatus("This browser offers no WebGL: the 3D view cannot be shown.");
    handle = { kind: asset.kind, ready: false, dispose() {} };
  } else {
    handle = sceneView(host, asset, setStatus);
  }
  host.append(status);
  return handle;
}

window.MshconvViewer = { open, three: THREE.REVISION };
