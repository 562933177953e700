extension WebApp {
    /// The viewer, a part of the app (`parts`): on each page shown (`koten:page`), zoom and pan of the page image
    /// (the `+` / `-` / `0` keys, Ctrl + wheel or a trackpad's pinch, two fingers on a touch screen; the stage
    /// scrolls, or is dragged, to pan), the line pointed at or focused shown enlarged (the loupe), the line list of
    /// a vertical page written vertically (縦書き, right to left) with a switch to horizontal, copying from the list
    /// giving the text only (no confidences, no ruby), and buttons copying the page's text and the book's
    /// (`result?format=txt`).
    static let viewer = #"""
(() => {
"use strict";
const K = window.KotenApp;
if (!K) return;
Object.assign(K.strings.en, {
  zoomIn: "Zoom in (+)", zoomOut: "Zoom out (−)", zoomFit: "Fit the page (0)", zoomLevel: "{0} %",
  vertical: "縦書き", horizontal: "横書き", writingLabel: "Write the list vertically",
  copyPage: "Copy the page's text", copyBook: "Copy the book's text", copied: "Copied.", copyFailed: "Could not copy: {0}",
  loupe: "The line, enlarged",
});
Object.assign(K.strings.ja, {
  zoomIn: "拡大（+）", zoomOut: "縮小（−）", zoomFit: "ページ全体（0）", zoomLevel: "{0} %",
  vertical: "縦書き", horizontal: "横書き", writingLabel: "行の一覧を縦書きにする",
  copyPage: "このページのテキストをコピー", copyBook: "本全体のテキストをコピー", copied: "コピーしました。", copyFailed: "コピーできませんでした：{0}",
  loupe: "拡大した行",
});
const {t, h, localised} = K;
const MIN = 1, MAX = 8;

// ---- zoom and pan ------------------------------------------------------------------------------------------------
/// Zooms the page of `root` to `z` (1: the whole page fits), keeping the point (cx, cy) of the stage (CSS pixels
/// from its top-left; its middle when not given) where it is.
function zoom(root, z, cx, cy) {
  const stage = root.querySelector(".stage"), sheet = root.querySelector(".sheet");
  if (!stage || !sheet) return;
  const old = Number(root.dataset.zoom || 1);
  z = Math.min(MAX, Math.max(MIN, z));
  if (Math.abs(z - old) < 1e-3) return;
  if (cx === undefined) { cx = stage.clientWidth / 2; cy = stage.clientHeight / 2; }
  const px = (stage.scrollLeft + cx) / old, py = (stage.scrollTop + cy) / old;
  if (!root._fit || old === 1) root._fit = sheet.getBoundingClientRect().width;
  if (z === 1) { sheet.style.width = ""; stage.classList.remove("zoomed"); }
  else { sheet.style.width = `${root._fit * z}px`; stage.classList.add("zoomed"); }
  root.dataset.zoom = String(z);
  stage.scrollLeft = px * z - cx;
  stage.scrollTop = py * z - cy;
  const level = root.querySelector(".zoom-level");
  if (level) localised(level, el => { el.textContent = t("zoomLevel", Math.round(z * 100)); });
}

function zoomKeys(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest?.("input, textarea, select, [contenteditable]")) return;
  const page = e.target.closest?.(".page");
  const root = page && page.querySelector(".result");
  if (!root) return;
  const z = Number(root.dataset.zoom || 1);
  if (e.key === "+" || e.key === "=") { e.preventDefault(); zoom(root, z * 1.25); }
  else if (e.key === "-" || e.key === "−" || e.key === "_") { e.preventDefault(); zoom(root, z / 1.25); }
  else if (e.key === "0") { e.preventDefault(); zoom(root, 1); }
}
document.addEventListener("keydown", zoomKeys);

function pannable(root) {
  const stage = root.querySelector(".stage");
  // Ctrl + wheel (a trackpad's pinch arrives so): zoom at the pointer; the wheel alone scrolls (pans) the stage.
  stage.addEventListener("wheel", e => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const r = stage.getBoundingClientRect();
    zoom(root, Number(root.dataset.zoom || 1) * Math.exp(-e.deltaY / 300), e.clientX - r.left, e.clientY - r.top);
  }, {passive: false});
  // Dragging a zoomed page pans it; two fingers pinch.
  const pointers = new Map();
  let drag = null, pinch = null;
  stage.addEventListener("pointerdown", e => {
    pointers.set(e.pointerId, {x: e.clientX, y: e.clientY});
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = {d: Math.hypot(a.x - b.x, a.y - b.y), z: Number(root.dataset.zoom || 1)};
      drag = null;
    } else if (Number(root.dataset.zoom || 1) > 1 && e.button === 0 && e.pointerType === "mouse") {
      drag = {x: e.clientX, y: e.clientY, left: stage.scrollLeft, top: stage.scrollTop};
      stage.setPointerCapture(e.pointerId);
      e.preventDefault();
    }
  });
  stage.addEventListener("pointermove", e => {
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, {x: e.clientX, y: e.clientY});
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const r = stage.getBoundingClientRect();
      zoom(root, pinch.z * Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, pinch.d), (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
    } else if (drag) {
      stage.scrollLeft = drag.left - (e.clientX - drag.x);
      stage.scrollTop = drag.top - (e.clientY - drag.y);
    }
  });
  const up = e => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; drag = null; };
  stage.addEventListener("pointerup", up);
  stage.addEventListener("pointercancel", up);
}

// ---- the loupe: the line pointed at, or focused (being read or edited), enlarged ------------------------------------
function loupeOf(root) {
  const image = root.querySelector(".sheet img");
  const sheet = root.querySelector(".sheet");
  const box = h("div", {class: "loupe", "aria-hidden": "true", hidden: true});
  const side = root.querySelector(".side");
  side.prepend(box);
  const W = Number(sheet.dataset.width) || 1, H = Number(sheet.dataset.height) || 1;
  const frame = line => {
    const [x, y, w, hh] = line.dataset.box.split(" ").map(Number);
    const m = Math.max(4, Math.min(w, hh) * 0.15);
    const bx = Math.max(0, x - m), by = Math.max(0, y - m), bw = Math.min(W - bx, w + 2 * m), bh = Math.min(H - by, hh + 2 * m);
    const vertical = line.classList.contains("v");
    const maxW = Math.max(80, side.clientWidth - 8), maxH = vertical ? Math.max(200, innerHeight * 0.6) : 160;
    return {bx, by, bw, bh, k: Math.min(maxW / bw, maxH / bh, 6)};
  };
  // The loupe's room is kept from the start, as tall as its tallest line: pointing at a line never moves the list
  // under the pointer (a click would land on another line).
  let room = 0;
  for (const line of root.querySelectorAll(".overlay .ol[data-box]")) { const f = frame(line); room = Math.max(room, Math.round(f.bh * f.k)); }
  box.style.height = `${room}px`;
  if (!room) box.style.display = "none";
  const show = n => {
    const line = root.querySelector(`.overlay .ol[data-line="${n}"]`);
    if (!line || !line.dataset.box) { box.hidden = true; return; }
    const {bx, by, bw, k} = frame(line);
    box.style.width = `${Math.round(bw * k)}px`;
    box.style.backgroundImage = `url("${image.currentSrc || image.src}")`;
    box.style.backgroundSize = `${W * k}px ${H * k}px`;
    box.style.backgroundPosition = `${-bx * k}px ${-by * k}px`;
    box.dataset.line = n;
    box.dataset.scale = k.toFixed(3);
    box.hidden = false;
  };
  for (const kind of ["mouseover", "focusin"]) {
    root.addEventListener(kind, e => {
      const n = e.target.closest?.("[data-line]")?.dataset.line;
      if (n !== undefined && !e.target.closest(".loupe")) show(n);
    });
  }
}

// ---- the list written vertically ---------------------------------------------------------------------------------
function writing(root, result) {
  const list = root.querySelector(".side ol.lines:not(.weak)");
  if (!list) return;
  const body = (Array.isArray(result.lines) ? result.lines : []).filter(l => l.kind !== "ruby" && !l.lowConfidence);
  const vertical = body.filter(l => l.orientation === "vertical").length * 2 > body.length;
  let chosen = null;
  try { chosen = localStorage.getItem("koten-ocr-writing"); } catch (e) { chosen = null; }
  const lists = () => root.querySelectorAll(".side ol.lines");
  const set = on => {
    for (const l of lists()) l.classList.toggle("tate", on);
    button.setAttribute("aria-pressed", String(on));
  };
  const button = h("button", {type: "button", class: "writing", "aria-pressed": "false"});
  localised(button, el => { el.textContent = t("vertical"); el.title = t("writingLabel"); });
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    set(on);
    try { localStorage.setItem("koten-ocr-writing", on ? "v" : "h"); } catch (e) { /* this visit only */ }
  });
  button.hidden = !vertical;
  set(vertical && chosen !== "h");
  return button;
}

// ---- copying -----------------------------------------------------------------------------------------------------
/// The text of `fragment` (a copy of a part of the list): each line's on its own row, without its confidence or ruby.
function listText(fragment) {
  const div = document.createElement("div");
  div.append(fragment);
  div.querySelectorAll("small, rt, rp, .loupe, button, input").forEach(e => e.remove());
  const items = [...div.querySelectorAll("li")];
  return (items.length ? items.map(li => li.textContent) : [div.textContent]).join("\n");
}
document.addEventListener("copy", e => {
  const selection = getSelection();
  if (!selection || !selection.rangeCount || selection.isCollapsed) return;
  const range = selection.getRangeAt(0);
  const at = range.commonAncestorContainer;
  const element = at.nodeType === 1 ? at : at.parentElement;
  if (!element || !element.closest(".side") || element.closest("input, textarea, [contenteditable]")) return;
  e.clipboardData.setData("text/plain", listText(range.cloneContents()));
  e.preventDefault();
});

async function copy(text, note) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (err) {   // no clipboard API (an insecure origin): the selection's
    const area = h("textarea", {class: "visually-hidden"});
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    if (!done) throw err;
  }
  localised(note, el => { el.textContent = t("copied"); });
}

function copyButtons(detail) {
  const note = h("span", {class: "copied", role: "status"});
  const page = h("button", {type: "button", class: "copy-page"});
  const book = h("button", {type: "button", class: "copy-book"});
  localised(page, el => { el.textContent = t("copyPage"); });
  localised(book, el => { el.textContent = t("copyBook"); });
  page.addEventListener("click", () => {
    // The page's lines as the list shows them now (corrections included), one a row.
    const items = [...detail.root.querySelectorAll(".side ol.lines:not(.weak) > li")];
    copy(listText(items.map(li => li.cloneNode(true)).reduce((f, li) => (f.append(li), f), document.createDocumentFragment())), note)
      .catch(err => localised(note, el => { el.textContent = t("copyFailed", K.errorText(err)); }));
  });
  book.addEventListener("click", async () => {
    try {
      const text = await K.apiText(`v1/jobs/${detail.job}/result?format=txt`);
      await copy(text.replace(/\f/g, "\n\n").replace(/\n+$/, "\n"), note);   // pages apart by a blank row
    } catch (err) {
      localised(note, el => { el.textContent = t("copyFailed", K.errorText(err)); });
    }
  });
  return [page, book, note];
}

// ---- on each page shown --------------------------------------------------------------------------------------------
document.addEventListener("koten:page", e => {
  const detail = e.detail, root = detail && detail.root;
  if (!root || root.dataset.viewer) return;
  root.dataset.viewer = "true";
  root.dataset.zoom = "1";
  const minus = h("button", {type: "button", class: "zoom-out"}, "−");
  const fit = h("button", {type: "button", class: "zoom-fit"}, "0");
  const plus = h("button", {type: "button", class: "zoom-in"}, "+");
  const level = h("span", {class: "zoom-level"}, "100 %");
  localised(minus, el => { el.setAttribute("aria-label", t("zoomOut")); el.title = t("zoomOut"); });
  localised(fit, el => { el.setAttribute("aria-label", t("zoomFit")); el.title = t("zoomFit"); });
  localised(plus, el => { el.setAttribute("aria-label", t("zoomIn")); el.title = t("zoomIn"); });
  minus.addEventListener("click", () => zoom(root, Number(root.dataset.zoom) / 1.25));
  fit.addEventListener("click", () => zoom(root, 1));
  plus.addEventListener("click", () => zoom(root, Number(root.dataset.zoom) * 1.25));
  const tools = h("div", {class: "tools"}, minus, fit, plus, level);
  const writes = writing(root, detail.result);
  if (writes) tools.append(writes);
  tools.append(...copyButtons(detail));
  root.prepend(tools);
  pannable(root);
  loupeOf(root);
});
})();
"""#

    /// The viewer's style.
    static let viewerCSS = #"""
.tools{flex:1 1 100%;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem}
.tools .zoom-level{min-width:4rem;color:var(--muted);font-size:.9rem}
.tools .copied{color:var(--muted);font-size:.9rem}
.tools button[aria-pressed=true]{background:#eaf3fa;border-color:var(--blue)}
.stage.zoomed{cursor:grab;touch-action:pan-x pan-y}
.stage.zoomed .sheet{max-width:none}
.loupe{position:sticky;top:0;z-index:2;margin:0 0 .5rem;border:2px solid var(--vermilion);background-repeat:no-repeat;background-color:#fff;box-shadow:0 2px 6px rgba(0,0,0,.25)}
.loupe[hidden]{display:block;visibility:hidden}
.lines.tate{writing-mode:vertical-rl;padding:2.2rem 0 0;max-height:70vh;max-width:100%;overflow-x:auto;margin:0;line-height:1.9}
.lines.tate li{padding:.2rem .1rem}
.lines.tate small{margin:.4rem 0 0;text-combine-upright:none}
.lines small{user-select:none}
"""#
}
