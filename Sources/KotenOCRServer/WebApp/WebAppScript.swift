extension WebApp {
    /// `GET /app.js`: the page's script, plain JavaScript with no library. It posts the chosen files as one job
    /// (`POST /v1/jobs`, multipart `file` fields), or a IIIF manifest's URL as one (`manifest`), follows `GET /v1/jobs/{id}/events` (falling back to polling
    /// `GET /v1/jobs/{id}` if the stream breaks), and for each page done shows the page image with each line's
    /// text over its outline (from the page's JSON: `polygon`, `orientation`, `characters`, `kind`, `annotates`,
    /// `lowConfidence`; docs/json-schema.md) and the lines in reading order beside it.
    static let js = #"""
"use strict";
(() => {
const LOW = 0.5; // a character read with a probability below this is marked (as the html format does)
// Each page's formats (a page's PDF is part of the job's: the job offers the PDF and a zip of each of these).
const FORMATS = [["json", "JSON", "json"], ["txt", "TXT", "txt"], ["alto", "ALTO", "alto.xml"], ["page", "PAGE", "page.xml"],
                 ["hocr", "hOCR", "hocr"], ["html", "HTML", "html"]];
const STRINGS = {
  en: {
    skip: "Skip to the results",
    tagline: "Reads pages of Japanese books, old and new, on this computer.",
    uploadTitle: "Read pages",
    dropLabel: "Drop images or a PDF here, or choose files",
    dropHint: "PNG, JPEG, TIFF, WebP, PDF, or a zip of images. Several files make one job.",
    errorTitle: "Something went wrong:",
    dismiss: "Dismiss",
    jobsTitle: "Results",
    empty: "Nothing read yet. The pages you choose appear here, each with its text over the image and beside it.",
    api: "HTTP API (OpenAPI)",
    langName: "English",
    server: "KotenOCR {0} · mode {1}",
    uploading: "Sending {0} file(s)…",
    queued: "Waiting in the queue: {1} page(s)",
    running: "Reading: {0} of {1} pages done",
    done: "Done: {0} of {1} pages read",
    failedCount: " ({0} failed)",
    cancelled: "Cancelled",
    remove: "Remove",
    removeLabel: "Remove the job {0} and its files",
    progressLabel: "Pages read of {0}",
    pageTitle: "Page {0}",
    pageQueued: "waiting",
    pageRunning: "reading…",
    pageDone: "{0} line(s)",
    pageFailed: "failed",
    pageImage: "Page image: {0}",
    linesLabel: "Lines of page {0} in reading order",
    legend: "Lines in reading order. Marked: characters read with a probability below 50 %.",
    weak: "Lines below the confidence threshold (only in the JSON download):",
    noLines: "No line was found on this page.",
    downloadPage: "Download this page:",
    downloadJob: "Download every page:",
    pdfJob: "PDF (searchable)",
    zip: "{0} (zip)",
    network: "The server could not be reached.",
    noFiles: "No file was chosen.",
    manifestLabel: "Or a book a digital library publishes with IIIF: the URL of its manifest",
    manifestRead: "Read the book",
    manifestHint: "Its pages are fetched from the library one at a time as they are read.",
    manifestSending: "Reading the manifest…",
    manifestBad: "A IIIF manifest's URL starts with http:// or https://.",
    imageCredit: "Image:",
    imageFailed: "The page image could not be loaded.",
    libraryImageFailed: "The library's image could not be loaded: {0}",
  },
  ja: {
    skip: "結果へ移動",
    tagline: "古典籍から現代の印刷物まで、日本語の本のページをこのコンピュータ上で読み取ります。",
    uploadTitle: "ページを読み取る",
    dropLabel: "画像やPDFをここにドロップ、またはファイルを選択",
    dropHint: "PNG・JPEG・TIFF・WebP・PDF、または画像のzip。複数のファイルはひとつのジョブになります。",
    errorTitle: "エラー：",
    dismiss: "閉じる",
    jobsTitle: "結果",
    empty: "まだ何も読み取っていません。選んだページがここに表示され、文字が画像の上と横に並びます。",
    api: "HTTP API（OpenAPI）",
    langName: "日本語",
    server: "KotenOCR {0}・モード {1}",
    uploading: "{0}個のファイルを送信中…",
    queued: "順番待ち：{1}ページ",
    running: "読み取り中：{1}ページ中{0}ページ完了",
    done: "完了：{1}ページ中{0}ページを読み取りました",
    failedCount: "（{0}ページ失敗）",
    cancelled: "中止しました",
    remove: "削除",
    removeLabel: "ジョブ「{0}」とそのファイルを削除",
    progressLabel: "「{0}」の読み取り済みページ",
    pageTitle: "{0}ページ目",
    pageQueued: "待機中",
    pageRunning: "読み取り中…",
    pageDone: "{0}行",
    pageFailed: "失敗",
    pageImage: "ページ画像：{0}",
    linesLabel: "{0}ページ目の行（読み順）",
    legend: "読み順に並んだ行。印のある文字は確率50%未満で読み取られたもの。",
    weak: "信頼度が閾値未満の行（JSONのダウンロードにのみ含まれます）：",
    noLines: "このページには行が見つかりませんでした。",
    downloadPage: "このページをダウンロード：",
    downloadJob: "すべてのページをダウンロード：",
    pdfJob: "PDF（検索可能）",
    zip: "{0}（zip）",
    network: "サーバーに接続できません。",
    noFiles: "ファイルが選ばれていません。",
    manifestLabel: "またはIIIFで公開されている本：そのマニフェストのURL",
    manifestRead: "本を読み取る",
    manifestHint: "ページは読み取る順に一枚ずつ図書館から取得されます。",
    manifestSending: "マニフェストを読み込み中…",
    manifestBad: "IIIFマニフェストのURLは http:// または https:// で始まります。",
    imageCredit: "画像：",
    imageFailed: "ページの画像を読み込めませんでした。",
    libraryImageFailed: "図書館の画像を読み込めませんでした：{0}",
  },
};

let lang = "en";
try { lang = localStorage.getItem("koten-ocr-lang") || ""; } catch (e) { lang = ""; }
if (!STRINGS[lang]) lang = /^ja\b/i.test(navigator.language || "") ? "ja" : "en";

function t(key, ...args) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

/// Elements whose words depend on the language: `fn` sets them now and again at every switch.
function localised(el, fn) { el.dataset.tr = ""; el._tr = fn; fn(el); return el; }

function applyLanguage() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-tr]")) if (el._tr) el._tr(el);
  const other = lang === "ja" ? "en" : "ja";
  const button = document.getElementById("lang");
  button.textContent = STRINGS[other].langName;
  button.lang = other;
  button.dataset.other = other;
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v; else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== undefined && c !== null) el.append(c);
  return el;
}

// ---- errors -----------------------------------------------------------------------------------------------------
const errorBox = () => document.getElementById("error");
function showError(message) {
  document.getElementById("error-text").textContent = message;
  errorBox().hidden = false;
}
function hideError() { errorBox().hidden = true; }

/// The text of `html` (IIIF's attribution may hold a little markup), read from an inert document: nothing runs or loads.
function plainText(html) {
  try { return new DOMParser().parseFromString(html, "text/html").body.textContent || ""; } catch (e) { return html; }
}

async function readJSON(response) {
  try { return await response.json(); } catch (e) { return null; }
}
/// `{"error","message"}` of the API as one line: the message, then the code and the HTTP status.
function apiError(response, body) {
  if (body && typeof body.message === "string") return `${body.message} (${body.error || "error"}, HTTP ${response.status})`;
  return `HTTP ${response.status} ${response.statusText}`.trim();
}
async function api(url, options) {
  let response;
  try { response = await fetch(url, options); } catch (e) { throw new Error(t("network")); }
  if (response.status === 204) return null;
  const body = await readJSON(response);
  if (!response.ok) throw new Error(apiError(response, body));
  return body;
}

// ---- jobs -------------------------------------------------------------------------------------------------------
const jobs = new Map();

/// A download's stem, as the server names the job's downloads (`DownloadName`, `IIIFNames.safe`): letters, digits
/// and marks, `-` and `_` kept, every other run one `_`, none at either end, at most 80 characters, NFC.
function clean(text) {
  const safe = (text || "").normalize("NFC").replace(/[^\p{L}\p{N}\p{M}_-]+/gu, "_").replace(/^_+|_+$/g, "");
  return [...safe].slice(0, 80).join("").replace(/_+$/, "") || "koten-ocr";
}
function stem(name) { return clean((name || "").replace(/\.[^.]*$/, "")); }

async function upload(files) {
  files = [...files];
  if (!files.length) { showError(t("noFiles")); return; }
  const form = new FormData();
  for (const f of files) form.append("file", f, f.name);
  await submit(files.map(f => f.name).join(", "), stem(files[0].name), form, () => t("uploading", files.length));
}

/// A book by its IIIF manifest (`POST /v1/jobs` with `manifest`): the server reads the manifest at once (its
/// refusal is shown), then fetches each canvas's image as it reads it; the page images shown are the library's.
async function readManifest(url) {
  let parsed = null;
  try { parsed = new URL(url.trim()); } catch (e) { parsed = null; }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) { showError(t("manifestBad")); return false; }
  const form = new FormData();
  form.append("manifest", parsed.href);
  // Downloads are named as the command line names the book's folder (…/book1/manifest.json: book1;
  // …/manifest/b42.json: b42).
  const parts = parsed.pathname.split("/").map(p => { try { return decodeURIComponent(p); } catch (e) { return p; } });
  while (parts.length && /^(manifest|manifest\.json|iiif|)$/i.test(parts[parts.length - 1])) parts.pop();
  const folder = parts.length ? parts[parts.length - 1].replace(/\.json$/i, "") : "manifest";
  return submit(parsed.href, clean(folder), form, () => t("manifestSending"));
}

/// Posts one job (`form`: its files, or its manifest) and follows it; its view says `sending()` until the server
/// answers, and goes with the error shown when the server refuses the job. True when the job was made. A job
/// removed before the server answered is deleted there as soon as it has an id.
async function submit(names, base, form, sending) {
  hideError();
  const job = newJobView(names, base);
  localised(job.status, el => { el.textContent = sending(); });
  let created;
  try {
    created = await api("v1/jobs", {method: "POST", body: form});
  } catch (e) {
    job.el.remove();
    updateEmpty();
    if (!job.removed) showError(e.message);
    return false;
  }
  if (job.removed) {
    api(`v1/jobs/${created.id}`, {method: "DELETE"}).catch(e => showError(e.message));
    return true;
  }
  adopt(job, created.id);
  remember();
  update(job, created);
  follow(job);
  return true;
}

function adopt(job, id) {
  job.id = id;
  job.el.id = "job-" + id;
  job.el.dataset.job = id;
  jobs.set(id, job);
}

// The jobs of this browser are remembered (ids and names only), so that a reload shows them again while the
// server keeps them.
function remember() {
  const saved = [...jobs.values()].map(j => ({id: j.id, names: j.names, base: j.base}));
  try { localStorage.setItem("koten-ocr-jobs", JSON.stringify(saved)); } catch (e) { /* not kept: a private window */ }
}
async function restore() {
  let saved = [];
  try { saved = JSON.parse(localStorage.getItem("koten-ocr-jobs") || "[]"); } catch (e) { saved = []; }
  if (!Array.isArray(saved)) return;
  for (const s of saved) {   // oldest first, so that the newest ends at the top
    if (!s || typeof s.id !== "string" || !/^[0-9a-f]+$/i.test(s.id)) continue;
    let data;
    try {
      const response = await fetch(`v1/jobs/${s.id}`);
      if (!response.ok) continue;   // gone from the server: forgotten
      data = await response.json();
    } catch (e) { continue; }
    const job = newJobView(String(s.names || ""), String(s.base || "koten-ocr"));
    adopt(job, s.id);
    update(job, data);
    if (!job.ended) follow(job);
  }
  remember();
}

function newJobView(names, base) {
  const title = h("h3", {}, names);
  const progress = h("progress", {max: 1, value: 0});
  localised(progress, el => el.setAttribute("aria-label", t("progressLabel", names)));
  const status = h("p", {class: "status", role: "status"});
  const remove = h("button", {type: "button", class: "remove"});
  localised(remove, el => { el.textContent = t("remove"); el.setAttribute("aria-label", t("removeLabel", names)); });
  const downloads = h("div", {class: "downloads job-downloads", hidden: true});
  const pages = h("ol", {class: "pages"});
  const el = h("article", {class: "job"}, title, h("div", {class: "jobbar"}, progress, status, remove), downloads, pages);
  const list = document.getElementById("jobs");
  list.insertBefore(el, list.querySelector(".job"));
  updateEmpty();
  const job = {id: null, names, base, el, progress, status, downloads, pagesEl: pages, pages: new Map(), data: null, ended: false, source: null};
  remove.addEventListener("click", () => removeJob(job));
  return job;
}

function updateEmpty() { document.getElementById("empty").hidden = !!document.querySelector(".job"); }

async function removeJob(job) {
  job.ended = true;
  job.removed = true;
  if (job.source) job.source.close();
  if (job.id) {
    try { await api(`v1/jobs/${job.id}`, {method: "DELETE"}); } catch (e) { showError(e.message); }
    jobs.delete(job.id);
    remember();
  }
  job.el.remove();
  updateEmpty();
  document.getElementById("jobs").focus();
}

function follow(job) {
  if (typeof EventSource !== "function") { poll(job); return; }
  const source = new EventSource(`v1/jobs/${job.id}/events`);
  job.source = source;
  source.addEventListener("progress", e => update(job, JSON.parse(e.data)));
  source.addEventListener("end", e => { source.close(); update(job, JSON.parse(e.data)); });
  source.onerror = () => { source.close(); if (!job.ended) setTimeout(() => poll(job), 1000); };
}

async function poll(job) {
  if (job.ended || !jobs.has(job.id)) return;
  try {
    update(job, await api(`v1/jobs/${job.id}`));
  } catch (e) {
    showError(e.message);
    return;
  }
  if (!job.ended) setTimeout(() => poll(job), 1500);
}

function update(job, data) {
  if (!data || !jobs.has(job.id)) return;
  job.data = data;
  const p = data.progress || {done: 0, failed: 0, total: 0};
  job.progress.max = Math.max(1, p.total);
  job.progress.value = p.done + p.failed;
  job.ended = data.state === "done" || data.state === "cancelled";
  job.el.dataset.state = data.state;
  localised(job.status, el => {
    const key = {queued: "queued", running: "running", done: "done", cancelled: "cancelled"}[data.state] || "running";
    el.textContent = t(key, p.done, p.total) + (p.failed ? t("failedCount", p.failed) : "");
  });
  for (const page of data.pages || []) updatePage(job, page);
  if (data.state === "done" && job.downloads.hidden) {
    job.downloads.append(localised(h("span"), el => { el.textContent = t("downloadJob"); }));
    job.downloads.append(localised(h("a", {href: `v1/jobs/${job.id}/result?format=pdf`, download: `${job.base}.pdf`, "data-format": "pdf"}),
                                   el => { el.textContent = t("pdfJob"); }));
    for (const [format, label] of FORMATS) {
      job.downloads.append(localised(h("a", {href: `v1/jobs/${job.id}/result?format=${format}-zip`, download: `${job.base}-${format}.zip`, "data-format": format}),
                                     el => { el.textContent = t("zip", label); }));
    }
    job.downloads.hidden = false;
  }
}

function updatePage(job, page) {
  let view = job.pages.get(page.n);
  if (!view) {
    const state = h("span", {class: "state"});
    const heading = h("h4", {id: `job-${job.id}-p${page.n}-title`});
    localised(heading, el => { el.textContent = `${t("pageTitle", page.n)} · ${page.name || ""}`; });
    const el = h("li", {class: "page", id: `job-${job.id}-p${page.n}`, "data-page": page.n, "aria-labelledby": heading.id}, heading, state);
    job.pagesEl.append(el);
    view = {el, state, loading: false, n: page.n, name: page.name || ""};
    job.pages.set(page.n, view);
  }
  view.el.dataset.state = page.state;
  localised(view.state, el => {
    el.className = "state " + page.state;
    el.textContent = page.state === "done" ? t("pageDone", view.shown ?? page.lines ?? "…")
      : page.state === "failed" ? t("pageFailed") : page.state === "running" ? t("pageRunning") : t("pageQueued");
  });
  if (page.state === "failed" && !view.el.querySelector(".page-error")) {
    view.el.append(h("p", {class: "page-error"}, page.error || ""));
  }
  if (page.state === "done" && !view.loading) {
    view.loading = true;
    loadPage(job, view);
  }
}

async function loadPage(job, view) {
  let result;
  try {
    result = await api(`v1/jobs/${job.id}/pages/${view.n}?format=json`);
  } catch (e) {
    view.el.append(h("p", {class: "page-error"}, e.message));
    return;
  }
  const shown = renderPage(job, view, result);
  view.el.append(shown);
  fit(view.el);
  // The seam for the app's other parts (the viewer, proofreading): a page shown, with its JSON and its elements.
  view.el.dispatchEvent(new CustomEvent("koten:page", {bubbles: true, detail: {job: job.id, page: view.n, result, root: shown, view}}));
  // The count shown is of the body lines listed (the server's counts ruby and low-confidence lines too).
  view.shown = (Array.isArray(result.lines) ? result.lines : []).filter(l => l.kind !== "ruby" && !l.lowConfidence).length;
  view.state._tr(view.state);
  view.el.dataset.loaded = "true";
}

// ---- one page: the image with the text over each line, and the lines beside it -------------------------------------
/// The characters of `line` (when they spell its text), each below LOW in <mark class="low">; with `rubies`, the
/// characters each ruby line annotates inside <ruby>…<rt>reading</rt></ruby>.
function lineText(line, rubies) {
  const out = document.createDocumentFragment();
  const chars = Array.isArray(line.characters) && line.characters.map(c => c.text).join("") === line.text ? line.characters : null;
  if (!chars) { out.append(line.text || ""); return out; }
  const one = c => {
    if (!(c.confidence < LOW)) return document.createTextNode(c.text);
    const m = h("mark", {class: "low", title: `${Math.round(c.confidence * 100)}%`}, c.text);
    return m;
  };
  for (let i = 0; i < chars.length;) {
    const ruby = (rubies || []).find(r => r.annotates.start === i && r.annotates.end > i && r.annotates.end <= chars.length);
    if (ruby) {
      const el = h("ruby");
      for (let j = i; j < ruby.annotates.end; j++) el.append(one(chars[j]));
      el.append(h("rt", {}, ruby.text || ""));
      out.append(el);
      i = ruby.annotates.end;
    } else {
      out.append(one(chars[i]));
      i++;
    }
  }
  out.normalize?.();
  return out;
}

/// The line's own frame in page pixels: its outline's top-left corner, its width and height along its sides, and
/// the angle of its top side (the polygon runs clockwise from the top-left, docs/json-schema.md); the box when the
/// polygon is not a usable quadrilateral.
function frameOf(line) {
  const p = line.polygon;
  if (Array.isArray(p) && p.length === 4 && p.every(q => Array.isArray(q) && q.length >= 2)) {
    const [a, b, c] = p;
    const w = Math.hypot(b[0] - a[0], b[1] - a[1]), hgt = Math.hypot(c[0] - b[0], c[1] - b[1]);
    const angle = Math.atan2(b[1] - a[1], b[0] - a[0]);
    if (w > 0 && hgt > 0 && Math.abs(angle) < Math.PI / 4) return {x: a[0], y: a[1], w, h: hgt, angle};
  }
  const box = line.box || {x: 0, y: 0, width: 0, height: 0};
  return {x: box.x, y: box.y, w: box.width, h: box.height, angle: 0};
}

function renderPage(job, view, result) {
  const width = result.source?.width || 1, height = result.source?.height || 1;
  const lines = Array.isArray(result.lines) ? result.lines : [];
  const rubiesOf = new Map();
  for (const l of lines) {
    if (l.kind === "ruby" && l.annotates) {
      if (!rubiesOf.has(l.annotates.line)) rubiesOf.set(l.annotates.line, []);
      rubiesOf.get(l.annotates.line).push(l);
    }
  }
  const idOf = l => `job-${job.id}-p${view.n}-l${l.readingOrder}`;
  const overlay = h("div", {class: "overlay", "aria-hidden": "true", lang: "ja", style: `width:${width}px;height:${height}px`});
  for (const line of lines) {
    if (line.lowConfidence) continue;
    const f = frameOf(line);
    const vertical = line.orientation === "vertical";
    const ruby = line.kind === "ruby";
    const el = h("div", {class: `ol ${vertical ? "v" : "h"}${ruby ? " ruby" : ""}`, id: idOf(line), "data-line": line.readingOrder,
                         "data-box": `${line.box.x} ${line.box.y} ${line.box.width} ${line.box.height}`});
    el.style.cssText = `left:${f.x}px;top:${f.y}px;width:${f.w}px;height:${f.h}px;font-size:${Math.max(1, vertical ? f.w : f.h)}px;`
      + (f.angle ? `transform:rotate(${f.angle}rad);` : "");
    const span = h("span", {class: "t"});
    if (!ruby) span.append(lineText(line, null));   // ruby is outlined but carries no text: search and copy read the body
    el.append(span);
    overlay.append(el);
  }
  const image = h("img", {src: `v1/jobs/${job.id}/pages/${view.n}/image`, width, height});
  localised(image, el => { el.alt = t("pageImage", view.name); });
  const iiif = result.source && result.source.iiif;
  image.addEventListener("error", () => {
    if (view.el.querySelector(".image-error")) return;
    const where = iiif && typeof iiif.image === "string" ? iiif.image : "";
    view.el.append(localised(h("p", {class: "page-error image-error", role: "status"}), el => {
      el.textContent = where ? t("libraryImageFailed", where) : t("imageFailed"); }));
  });
  const sheet = h("figure", {class: "sheet", "data-width": width, "data-height": height}, image, overlay);
  // A library's page: its attribution and rights shown with its image, as IIIF asks of what shows it.
  const credit = iiif && (iiif.attribution || iiif.rights) ? h("p", {class: "attribution"}) : null;
  if (credit) {
    credit.append(localised(h("span"), el => { el.textContent = t("imageCredit"); }), " ");
    // IIIF allows a little HTML in attribution (a, b, br, i, …): its text, from an inert document.
    if (iiif.attribution) credit.append(h("span", {class: "credit"}, plainText(String(iiif.attribution))));
    if (iiif.rights) {
      if (iiif.attribution) credit.append(" · ");
      const rights = String(iiif.rights);
      credit.append(/^https?:\/\//i.test(rights) ? h("a", {href: rights, class: "rights", rel: "license noopener", target: "_blank"}, rights)
                                                 : h("span", {class: "rights"}, rights));
    }
  }
  sheet.style.aspectRatio = `${width} / ${height}`;
  sheet.style.setProperty("--ar", String(width / height));        // a tall page is kept within the window's height
  sheet.style.setProperty("--most", `${2 * width}px`);            // a small image is shown at most twice its size
  const scale = () => {   // page pixels to CSS pixels; --u keeps outlines one CSS pixel wide at any scale
    const k = sheet.clientWidth / width;
    if (k > 0) { overlay.style.transform = `scale(${k})`; overlay.style.setProperty("--u", String(1 / k)); }
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(scale).observe(sheet);
  scale();

  const body = lines.filter(l => l.kind !== "ruby" && !l.lowConfidence);
  const weak = lines.filter(l => l.lowConfidence);
  const list = h("ol", {class: "lines", lang: "ja"});
  localised(list, el => el.setAttribute("aria-label", t("linesLabel", view.n)));
  const item = (l, i) => {
    const li = h("li", {value: i + 1, class: l.orientation === "vertical" ? "v" : "h", "data-line": l.readingOrder},
                 lineText(l, rubiesOf.get(l.readingOrder)));
    if (typeof l.confidence === "number") li.append(h("small", {lang: "en"}, `${Math.round(l.confidence * 100)}%`));
    return li;
  };
  body.forEach((l, i) => list.append(item(l, i)));
  const side = h("div", {class: "side"});
  side.append(localised(h("p", {class: "legend"}), el => { el.textContent = body.length ? t("legend") : t("noLines"); }));
  side.append(list);
  if (weak.length) {
    side.append(localised(h("p", {class: "weak-title"}), el => { el.textContent = t("weak"); }));
    const weakList = h("ol", {class: "lines weak", lang: "ja"});
    weak.forEach((l, i) => { const li = item(l, body.length + i); li.classList.add("weak"); weakList.append(li); });
    side.append(weakList);
  }
  const downloads = h("div", {class: "downloads page-downloads"});
  downloads.append(localised(h("span"), el => { el.textContent = t("downloadPage"); }));
  for (const [format, label, ext] of FORMATS) {
    downloads.append(h("a", {href: `v1/jobs/${job.id}/pages/${view.n}?format=${format}`, download: `${job.base}_p${String(view.n).padStart(4, "0")}.${ext}`,
                             "data-format": format}, label));
  }
  side.append(downloads);

  // A line pointed at in the list is outlined over the image, and the other way round.
  const both = n => [...overlay.querySelectorAll(`[data-line="${n}"]`), ...side.querySelectorAll(`li[data-line="${n}"]`)];
  for (const root of [overlay, side]) {
    root.addEventListener("mouseover", e => { const n = e.target.closest?.("[data-line]")?.dataset.line; if (n !== undefined) both(n).forEach(x => x.classList.add("hl")); });
    root.addEventListener("mouseout", e => { const n = e.target.closest?.("[data-line]")?.dataset.line; if (n !== undefined) both(n).forEach(x => x.classList.remove("hl")); });
  }
  if (credit) side.prepend(credit);
  return h("div", {class: "result"}, sheet, side);
}

/// Scales each line's text to fill its outline (measured in page pixels, so it holds at any displayed size).
function fit(root) {
  for (const span of root.querySelectorAll(".ol .t")) {
    const line = span.parentElement;
    if (span.offsetWidth > 0 && span.offsetHeight > 0) {
      span.style.transform = `scale(${line.clientWidth / span.offsetWidth},${line.clientHeight / span.offsetHeight})`;
    }
  }
}

// ---- the page's controls ----------------------------------------------------------------------------------------
function start() {
  const drop = document.getElementById("drop");
  const input = document.getElementById("file");
  drop.addEventListener("click", () => input.click());
  drop.addEventListener("keydown", e => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); input.click(); }
  });
  input.addEventListener("change", () => { const files = [...input.files]; input.value = ""; if (files.length) upload(files); });
  drop.addEventListener("dragover", e => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", e => { e.preventDefault(); drop.classList.remove("over"); upload(e.dataTransfer.files); });
  // A file dropped beside the zone must not replace the app.
  // (A link dropped into the manifest field goes in as its URL.)
  const manifest = document.getElementById("manifest");
  window.addEventListener("dragover", e => { if (e.target !== manifest) e.preventDefault(); });
  window.addEventListener("drop", e => { if (e.target !== manifest) e.preventDefault(); });
  const read = document.querySelector("#iiif button[type=submit]");
  document.getElementById("iiif").addEventListener("submit", async e => {
    e.preventDefault();
    if (read.disabled) return;   // one manifest at a time: a second Enter while the server reads it makes no second job
    read.disabled = true;
    const url = manifest.value;
    try {
      // Kept until the job is made: a refused URL stays to be corrected.
      if (await readManifest(url) && manifest.value === url) manifest.value = "";
    } finally {
      read.disabled = false;
    }
  });
  document.getElementById("error-close").addEventListener("click", () => { hideError(); drop.focus(); });
  document.getElementById("lang").addEventListener("click", e => {
    lang = e.currentTarget.dataset.other === "ja" ? "ja" : "en";
    try { localStorage.setItem("koten-ocr-lang", lang); } catch (err) { /* a private window: the choice lasts this visit */ }
    applyLanguage();
  });
  applyLanguage();
  restore();
  api("v1/status").then(s => {
    if (s && s.version) localised(document.getElementById("server"), el => { el.textContent = t("server", s.version, s.mode); });
  }).catch(() => {});
}

// What the app's other parts (WebApp.parts, after this script in app.js) may use; nothing else of this closure.
window.KotenApp = Object.freeze({
  t, h, api, apiError, readJSON, localised, showError, hideError, lineText, frameOf, fit, strings: STRINGS, jobs,
  get lang() { return lang; },
});

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
"""#
}
