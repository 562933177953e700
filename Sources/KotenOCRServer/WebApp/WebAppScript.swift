extension WebApp {
    /// `GET /app.js`: the page's script, plain JavaScript with no library. It posts the chosen files as one job
    /// (`POST /v1/jobs`, multipart `file` fields), or a IIIF manifest's URL as one (`manifest`), follows `GET /v1/jobs/{id}/events` (falling back to polling
    /// `GET /v1/jobs/{id}` if the stream breaks), lists each job's pages with their thumbnails (asked for as they
    /// come into view), and shows one page at a time (the one chosen or jumped to): the page image with each line's
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
    removeLabel: "Remove {0} and its files",
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
    txtJob: "Text of the whole book (txt)",
    pagesLabel: "Pages of {0}",
    prevPage: "Previous page",
    nextPage: "Next page",
    jumpLabel: "Page",
    pageCount: "of {0}",
    removing: "“{0}” will be removed in {1} seconds.",
    undo: "Undo",
    removeNow: "Remove now",
    modeLine: "Reading mode: {0}",
    mode_ppocr: "Present-day print · PP-OCRv5",
    mode_ndl: "Modern print (Meiji to Shōwa) · NDLOCR-Lite",
    mode_koten: "Classical books (kuzushiji) · NDL Koten OCR-Lite",
    kotenHint: "To read classical books, install NDL Koten OCR-Lite's models and start the server in that mode:",
    error_unknown: "Something went wrong.",
  },
  ja: {
    skip: "結果へ移動",
    tagline: "古典籍から現代の印刷物まで、日本語の本のページをこのコンピュータ上で読み取ります。",
    uploadTitle: "ページを読み取る",
    dropLabel: "画像やPDFをここにドロップ、またはファイルを選択",
    dropHint: "PNG・JPEG・TIFF・WebP・PDF、または画像のzip。複数のファイルは一冊としてまとめて読み取ります。",
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
    removeLabel: "「{0}」とそのファイルを削除",
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
    txtJob: "本全体のテキスト（txt）",
    pagesLabel: "「{0}」のページ",
    prevPage: "前のページ",
    nextPage: "次のページ",
    jumpLabel: "ページ",
    pageCount: "／{0}",
    removing: "「{0}」を{1}秒後に削除します。",
    undo: "元に戻す",
    removeNow: "今すぐ削除",
    modeLine: "読み取りのモード：{0}",
    mode_ppocr: "現代の印刷物・PP-OCRv5",
    mode_ndl: "近代の印刷物・NDLOCR-Lite",
    mode_koten: "古典籍・NDL 古典籍OCR-Lite",
    kotenHint: "古典籍（くずし字）を読むには、NDL 古典籍OCR-Liteのモデルを入れて、そのモードでサーバーを起動してください：",
    error_unknown: "エラーが起きました。",
  },
};

// Every error code of the API, in both languages (WebAppMessages.swift).
const ERRORS = \#(errorsJSON);
Object.assign(STRINGS.ja, ERRORS.ja);
Object.assign(STRINGS.en, ERRORS.en);

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
/// Shows `error`: a text, or an error of `api` (its words in the page's language, at every switch).
function showError(error) {
  const el = document.getElementById("error-text");
  if (error && typeof error === "object") {
    localised(el, e => { e.textContent = errorText(error); });
    el.title = error.detail || "";
  } else {
    el._tr = null;
    el.textContent = String(error ?? "");
    el.title = "";
  }
  errorBox().hidden = false;
}
function hideError() { errorBox().hidden = true; }

/// An error of the API: its code (`APIError.Code`), HTTP status and the server's one-line message (`detail`).
class APIFailure extends Error {
  constructor(status, code, detail, key) {
    super("");
    this.status = status; this.code = code; this.detail = detail; this.key = key;
    this.message = errorText(this);
  }
}
/// An error in the page's language: the words for its code, then the code and the status (in English also the
/// server's message).
function errorText(e) {
  if (!e) return "";
  if (e.key) return t(e.key);
  if (e.code === undefined) return e.message || String(e);
  const known = STRINGS.en["error_" + e.code] !== undefined;
  const words = known ? t("error_" + e.code) : (lang === "en" && e.detail ? e.detail : t("error_unknown"));
  const detail = lang === "en" && known && e.detail ? ` ${e.detail}` : "";
  return `${words}${detail} (${e.code || "error"}, HTTP ${e.status})`;
}

/// The text of `html` (IIIF's attribution may hold a little markup), read from an inert document: nothing runs or loads.
function plainText(html) {
  try { return new DOMParser().parseFromString(html, "text/html").body.textContent || ""; } catch (e) { return html; }
}

async function readJSON(response) {
  try { return await response.json(); } catch (e) { return null; }
}
/// `{"error","message"}` of the API as one line: its words, the code and the HTTP status.
function apiError(response, body) {
  return errorText(new APIFailure(response.status, body && typeof body.error === "string" ? body.error : (response.statusText || "error"),
                                  body && typeof body.message === "string" ? body.message : ""));
}
async function api(url, options) {
  let response;
  try { response = await fetch(url, options); } catch (e) { throw new APIFailure(0, "network", "", "network"); }
  if (response.status === 204) return null;
  const body = await readJSON(response);
  if (!response.ok) {
    throw new APIFailure(response.status, body && typeof body.error === "string" ? body.error : "error",
                         body && typeof body.message === "string" ? body.message : `${response.status} ${response.statusText}`.trim());
  }
  return body;
}
/// The text of a document of the API (`result?format=txt`).
async function apiText(url) {
  let response;
  try { response = await fetch(url); } catch (e) { throw new APIFailure(0, "network", "", "network"); }
  if (!response.ok) {
    const body = await readJSON(response);
    throw new APIFailure(response.status, body && typeof body.error === "string" ? body.error : "error",
                         body && typeof body.message === "string" ? body.message : "");
  }
  return response.text();
}

// ---- jobs: each a book, its pages listed with thumbnails beside the one page shown -------------------------------
const jobs = new Map();

/// A download's stem, as the server names the job's downloads (`DownloadName`, `IIIFNames.safe`): letters, digits
/// and marks, `-` and `_` kept, every other run one `_`, none at either end, at most 80 characters, NFC.
function clean(text) {
  const safe = (text || "").normalize("NFC").replace(/[^\p{L}\p{N}\p{M}_-]+/gu, "_").replace(/^_+|_+$/g, "");
  return [...safe].slice(0, 80).join("").replace(/_+$/, "") || "koten-ocr";
}
function stem(name) { return clean((name || "").replace(/\.[^.]*$/, "")); }

/// A IIIF label (`labels`: a language map, `label`: one language) in the page's language: its own, else Japanese,
/// else one without a language, else the first; null when there is none.
function inLanguage(labels, label) {
  if (labels && typeof labels === "object") {
    for (const key of [lang, "ja", "none", ...Object.keys(labels)]) {
      const v = labels[key];
      if (Array.isArray(v) && v.length && typeof v[0] === "string" && v[0]) return v.join(" ");
    }
  }
  return typeof label === "string" && label ? label : null;
}
/// A job's title: its manifest's label (docs/iiif.md), else the names of its files.
function jobTitle(job) { return inLanguage(job.data?.labels, job.data?.label) || job.names; }
/// A page's label: its canvas's, else null.
function pageLabel(page) { return page ? inLanguage(page.labels, page.label) : null; }

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
    if (!job.removed) showError(e);
    return false;
  }
  if (job.removed) {
    api(`v1/jobs/${created.id}`, {method: "DELETE"}).catch(e => showError(e));
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
    if (!s || typeof s.id !== "string" || !/^[0-9a-f]+$/i.test(s.id) || jobs.has(s.id)) continue;
    await openJob(s.id, String(s.names || ""), String(s.base || "koten-ocr"), false);
  }
  remember();
}

/// The view of job `id`, made from the server's record when this page has none (a job of another browser, found
/// by a search); null when the server has no such job.
async function openJob(id, names, base, keep = true) {
  if (jobs.has(id)) return jobs.get(id);
  let data;
  try {
    const response = await fetch(`v1/jobs/${id}`);
    if (!response.ok) return null;   // gone from the server: forgotten
    data = await response.json();
  } catch (e) { return null; }
  if (jobs.has(id)) return jobs.get(id);
  const first = (data.pages || [])[0];
  const job = newJobView(names || (first ? String(first.name || "").replace(/ p\d+$/, "") : id), base || stem(first?.name));
  adopt(job, id);
  update(job, data);
  if (!job.ended) follow(job);
  if (keep) remember();
  return job;
}

function newJobView(names, base) {
  const title = h("h3", {}, names);
  const progress = h("progress", {max: 1, value: 0});
  const status = h("p", {class: "status", role: "status"});
  const remove = h("button", {type: "button", class: "remove"});
  const downloads = h("div", {class: "downloads job-downloads", hidden: true});
  // The page list: one item per page, its thumbnail asked for only when the item comes into view.
  const thumbs = h("ol", {class: "thumbs"});
  const list = h("nav", {class: "pagelist"}, thumbs);
  const prev = h("button", {type: "button", class: "prev"}, "‹");
  const next = h("button", {type: "button", class: "next"}, "›");
  const jump = h("input", {type: "number", class: "jump", min: 1, value: 1, inputmode: "numeric"});
  const count = h("span", {class: "count"});
  const bar = h("form", {class: "pagebar"}, prev, localised(h("label", {class: "jump-label"}), el => { el.textContent = t("jumpLabel"); }), jump, count, next);
  const shown = h("div", {class: "shown"});
  const pageview = h("div", {class: "pageview"}, bar, shown);
  const viewer = h("div", {class: "viewer", hidden: true}, list, pageview);
  const el = h("article", {class: "job"}, title, h("div", {class: "jobbar"}, progress, status, remove), downloads, viewer);
  const jobsEl = document.getElementById("jobs");
  jobsEl.insertBefore(el, jobsEl.querySelector(".job, .undo"));
  updateEmpty();
  const job = {id: null, names, base, el, title, progress, status, downloads, thumbsEl: thumbs, listEl: list, viewer, shownEl: shown,
               jump, count, items: new Map(), view: null, current: 0, data: null, ended: false, source: null, waiting: []};
  localised(title, el => { el.textContent = jobTitle(job); });
  localised(progress, el => el.setAttribute("aria-label", t("progressLabel", jobTitle(job))));
  localised(remove, el => { el.textContent = t("remove"); el.setAttribute("aria-label", t("removeLabel", jobTitle(job))); });
  localised(thumbs, el => el.setAttribute("aria-label", t("pagesLabel", jobTitle(job))));
  localised(prev, el => el.setAttribute("aria-label", t("prevPage")));
  localised(next, el => el.setAttribute("aria-label", t("nextPage")));
  localised(jump, el => el.setAttribute("aria-label", t("jumpLabel")));
  remove.addEventListener("click", () => removeJob(job));
  prev.addEventListener("click", () => go(job, job.current - 1));
  next.addEventListener("click", () => go(job, job.current + 1));
  bar.addEventListener("submit", e => { e.preventDefault(); go(job, Number(jump.value)); });
  thumbs.addEventListener("keydown", e => {
    const from = e.target.closest?.(".tp");
    if (!from) return;
    const n = Number(from.dataset.page), last = job.items.size;
    const to = {ArrowDown: n + 1, ArrowRight: n + 1, ArrowUp: n - 1, ArrowLeft: n - 1, Home: 1, End: last}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const item = job.items.get(Math.min(last, Math.max(1, to)));
    if (!item) return;
    for (const b of thumbs.querySelectorAll(".thumb[tabindex='0']")) b.tabIndex = -1;
    const button = item.querySelector(".thumb");
    button.tabIndex = 0;
    button.focus();
  });
  jump.addEventListener("change", () => go(job, Number(jump.value)));
  pageview.addEventListener("keydown", e => {
    if (e.target.closest("input, textarea, select, [contenteditable]")) return;
    if (e.key === "PageDown") { e.preventDefault(); go(job, job.current + 1); }
    if (e.key === "PageUp") { e.preventDefault(); go(job, job.current - 1); }
  });
  job.observer = typeof IntersectionObserver === "function"
    ? new IntersectionObserver(entries => {
        for (const entry of entries) {
          entry.target._visible = entry.isIntersecting;
          if (entry.isIntersecting) thumbnail(job, entry.target);
        }
      }, {root: list, rootMargin: "80px 0px"})
    : null;
  return job;
}

function updateEmpty() { document.getElementById("empty").hidden = !!document.querySelector(".job:not([hidden])"); }

// ---- removing a job: undone within a few seconds; a removal in another tab of this browser removes it here too ---
const UNDO_SECONDS = 8;

function removeJob(job) {
  if (!job.id) {   // not made yet: nothing to undo, the server's job is deleted as soon as it has its id
    job.removed = true;
    job.el.remove();
    updateEmpty();
    return;
  }
  if (job.pending) return;
  const undo = h("button", {type: "button", class: "undo-button"});
  const now = h("button", {type: "button", class: "confirm"});
  const text = h("span");
  const bar = h("div", {class: "undo", role: "status", "data-job": job.id}, text, undo, now);
  localised(text, el => { el.textContent = t("removing", jobTitle(job), UNDO_SECONDS); });
  localised(undo, el => { el.textContent = t("undo"); });
  localised(now, el => { el.textContent = t("removeNow"); });
  job.el.before(bar);
  job.el.hidden = true;
  updateEmpty();
  // The countdown stops while the offer has the focus or the pointer (time enough to read it and choose), and
  // starts again, whole, when it has neither.
  let timer = null;
  const finish = () => { clearTimeout(timer); bar.remove(); job.pending = null; deleteJob(job); };
  const wait = () => { clearTimeout(timer); timer = setTimeout(finish, UNDO_SECONDS * 1000); job.pending && (job.pending.timer = timer); };
  const hold = () => { clearTimeout(timer); };
  const held = () => bar.contains(document.activeElement) || bar.matches(":hover");
  job.pending = {bar, timer};
  bar.addEventListener("focusin", hold);
  bar.addEventListener("mouseenter", hold);
  bar.addEventListener("focusout", () => setTimeout(() => { if (job.pending && !held()) wait(); }, 0));
  bar.addEventListener("mouseleave", () => { if (job.pending && !held()) wait(); });
  wait();
  undo.addEventListener("click", () => {
    clearTimeout(timer);
    bar.remove();
    job.pending = null;
    job.el.hidden = false;
    updateEmpty();
    job.el.querySelector("button.remove").focus();
  });
  now.addEventListener("click", finish);
  undo.focus();
}

async function deleteJob(job) {
  dropJob(job);
  try { await api(`v1/jobs/${job.id}`, {method: "DELETE"}); } catch (e) { if (e.code !== "not_found") showError(e); }
  // Another tab of this browser showing the job leaves it too (the storage event, docs/serve.md "The web app").
  try { localStorage.setItem("koten-ocr-removed", JSON.stringify({id: job.id, at: Date.now()})); } catch (e) { /* a private window */ }
  document.getElementById("jobs").focus();
}

/// The job's view gone from this page (removed here, in another tab, or gone from the server).
function dropJob(job) {
  job.ended = true;
  job.removed = true;
  if (job.source) job.source.close();
  if (job.pending) { clearTimeout(job.pending.timer); job.pending.bar.remove(); job.pending = null; }
  if (job.observer) job.observer.disconnect();
  if (job.id) { jobs.delete(job.id); remember(); }
  job.el.remove();
  updateEmpty();
}

window.addEventListener("storage", e => {
  if (e.key !== "koten-ocr-removed" || !e.newValue) return;
  let removed = null;
  try { removed = JSON.parse(e.newValue); } catch (err) { removed = null; }
  const job = removed && jobs.get(removed.id);
  if (job) dropJob(job);
});

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
    if (e.code === "not_found") { dropJob(job); return; }   // removed elsewhere
    showError(e);
    return;
  }
  if (!job.ended) setTimeout(() => poll(job), 1500);
}

function update(job, data) {
  if (!data || !jobs.has(job.id)) return;
  const labelled = !job.data || job.data.label !== data.label;
  job.data = Object.assign(job.data || {}, data, {pages: data.pages || job.data?.pages || []});
  if (labelled) for (const el of job.el.querySelectorAll("[data-tr]")) if (el._tr && !el.closest(".page")) el._tr(el);
  const p = data.progress || {done: 0, failed: 0, total: 0};
  job.progress.max = Math.max(1, p.total);
  job.progress.value = p.done + p.failed;
  job.ended = data.state === "done" || data.state === "cancelled";
  job.el.dataset.state = data.state;
  localised(job.status, el => {
    const key = {queued: "queued", running: "running", done: "done", cancelled: "cancelled"}[data.state] || "running";
    el.textContent = t(key, p.done, p.total) + (p.failed ? t("failedCount", p.failed) : "");
  });
  const pages = data.pages || [];
  if (pages.length) {
    job.viewer.hidden = false;
    localised(job.count, el => { el.textContent = t("pageCount", job.data.pages.length); });
    job.jump.max = pages.length;
  }
  for (const page of pages) updatePage(job, page);
  if (pages.length && !job.current) go(job, 1, false);
  if (data.state === "done" && job.downloads.hidden) {
    job.downloads.append(localised(h("span"), el => { el.textContent = t("downloadJob"); }));
    job.downloads.append(localised(h("a", {href: `v1/jobs/${job.id}/result?format=pdf`, download: `${job.base}.pdf`, "data-format": "pdf"}),
                                   el => { el.textContent = t("pdfJob"); }));
    job.downloads.append(localised(h("a", {href: `v1/jobs/${job.id}/result?format=txt`, download: `${job.base}.txt`, "data-format": "txt-book"}),
                                   el => { el.textContent = t("txtJob"); }));
    for (const [format, label] of FORMATS) {
      job.downloads.append(localised(h("a", {href: `v1/jobs/${job.id}/result?format=${format}-zip`, download: `${job.base}-${format}.zip`, "data-format": format}),
                                     el => { el.textContent = t("zip", label); }));
    }
    job.downloads.hidden = false;
  }
}

function stateText(page, lines) {
  return page.state === "done" ? t("pageDone", lines ?? page.lines ?? "…")
    : page.state === "failed" ? t("pageFailed") : page.state === "running" ? t("pageRunning") : t("pageQueued");
}

/// A page's item in the page list (made once), and the page shown when it is this one.
function updatePage(job, page) {
  let item = job.items.get(page.n);
  if (!item) {
    const image = h("img", {class: "tn", alt: "", width: 60, height: 84, decoding: "async"});
    const caption = h("span", {class: "tl"});
    const state = h("span", {class: "state"});
    // One stop in the focus order for the whole list (the current page's item); the arrows move within it.
    const button = h("button", {type: "button", class: "thumb", tabindex: job.items.size === 0 ? 0 : -1}, image, caption, state);
    item = h("li", {class: "tp", "data-page": page.n}, button);
    item._image = image;
    item._state = state;
    localised(caption, el => { const label = pageLabel(job.data.pages[page.n - 1]); el.textContent = label || String(page.n); });
    localised(button, el => { const label = pageLabel(job.data.pages[page.n - 1]); el.setAttribute("aria-label", t("pageTitle", page.n) + (label ? ` · ${label}` : "")); });
    button.addEventListener("click", () => go(job, page.n));
    job.thumbsEl.append(item);
    job.items.set(page.n, item);
    if (job.observer) job.observer.observe(item); else item._visible = true;
  }
  const was = item.dataset.state;
  item.dataset.state = page.state;
  if (was !== page.state) {
    localised(item._state, el => { el.className = "state " + page.state; el.textContent = stateText(page); });
    if (page.state === "done" && item._visible) thumbnail(job, item);
  }
  if (job.view && job.view.n === page.n) updateShown(job, job.view, page);
}

/// The thumbnail of a page read, asked for once its item is in view.
function thumbnail(job, item) {
  if (item.dataset.state !== "done" || item._image.getAttribute("src")) return;
  item._image.src = `v1/jobs/${job.id}/pages/${item.dataset.page}/thumbnail`;
}

/// Shows page `n` of the job (the others are not kept: only the page shown has its JSON and image loaded).
function go(job, n, focus = true) {
  const pages = job.data?.pages || [];
  if (!pages.length) return;
  n = Math.min(pages.length, Math.max(1, Math.round(Number(n)) || 1));
  job.jump.value = n;
  if (job.current === n && job.view) return;
  job.current = n;
  for (const el of job.thumbsEl.querySelectorAll("[aria-current]")) el.removeAttribute("aria-current");
  const item = job.items.get(n);
  if (item) {
    item.setAttribute("aria-current", "page");
    for (const b of job.thumbsEl.querySelectorAll(".thumb[tabindex='0']")) b.tabIndex = -1;
    item.querySelector(".thumb").tabIndex = 0;
    const list = job.listEl, top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 3;
  }
  const page = pages[n - 1];
  const heading = h("h4", {id: `job-${job.id}-p${n}-title`});
  const state = h("span", {class: "state"});
  const el = h("section", {class: "page", id: `job-${job.id}-p${n}`, "data-page": n, "aria-labelledby": heading.id, tabindex: -1}, heading, state);
  const view = {el, state, loading: false, n, name: page.name || ""};
  localised(heading, el => {
    const label = pageLabel(job.data.pages[n - 1]);
    el.textContent = `${t("pageTitle", n)} · ${label || view.name}`;
  });
  job.view = view;
  job.shownEl.replaceChildren(el);
  updateShown(job, view, page);
  if (focus) el.focus({preventScroll: true});
}

function updateShown(job, view, page) {
  view.el.dataset.state = page.state;
  localised(view.state, el => { el.className = "state " + page.state; el.textContent = stateText(page, view.shown); });
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
    view.el.append(localised(h("p", {class: "page-error"}), el => { el.textContent = errorText(e); }));
    return;
  }
  if (job.view !== view) return;   // another page was asked for meanwhile
  const shown = renderPage(job, view, result);
  view.el.append(shown);
  fit(view.el);
  // The count shown is of the body lines listed (the server's counts ruby and low-confidence lines too).
  view.shown = (Array.isArray(result.lines) ? result.lines : []).filter(l => l.kind !== "ruby" && !l.lowConfidence).length;
  view.state._tr(view.state);
  const item = job.items.get(view.n);
  if (item) localised(item._state, el => { el.className = "state done"; el.textContent = t("pageDone", view.shown); });
  view.el.dataset.loaded = "true";
  // The seam for the app's other parts (the viewer, proofreading, search): a page shown, with its JSON and its elements.
  view.detail = {job: job.id, page: view.n, result, root: shown, view};
  view.el.dispatchEvent(new CustomEvent("koten:page", {bubbles: true, detail: view.detail}));
  for (const w of job.waiting.splice(0)) if (w.n === view.n) w.resolve(view.detail); else job.waiting.push(w);
}

/// Shows page `n` of job `id` (its view made when this page has none), resolved with the `koten:page` detail once
/// the page is shown; null when the server has no such job or page.
async function showPage(id, n) {
  const job = await openJob(id);
  if (!job) return null;
  if (job.el.hidden && job.pending) return null;
  go(job, n);
  const view = job.view;
  if (!view || view.n !== Number(n)) return null;
  if (view.detail) return view.detail;
  return new Promise(resolve => job.waiting.push({n: view.n, resolve}));
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
    const el = h("div", {class: `ol ${vertical ? "v" : "h"}${ruby ? " ruby" : ""}`, id: idOf(line), "data-line": line.readingOrder, "data-id": line.id,
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
  // The sheet in its stage: the stage scrolls (pans) the sheet when it is zoomed (WebAppViewer.swift).
  const stage = h("div", {class: "stage", tabindex: 0}, sheet);
  localised(stage, el => el.setAttribute("aria-label", t("pageImage", view.name)));
  stage.style.setProperty("--ar", String(width / height));        // a tall page is kept within the window's height
  stage.style.setProperty("--most", `${2 * width}px`);            // a small image is shown at most twice its size
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
    const li = h("li", {value: i + 1, class: l.orientation === "vertical" ? "v" : "h", "data-line": l.readingOrder, "data-id": l.id},
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
  return h("div", {class: "result"}, stage, side);
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
    if (!s || !s.version) return;
    const words = () => STRINGS.en["mode_" + s.mode] ? t("mode_" + s.mode) : s.mode;
    localised(document.getElementById("server"), el => { el.textContent = t("server", s.version, words()); });
    const mode = document.getElementById("mode");
    localised(mode.querySelector(".mode-name"), el => { el.textContent = t("modeLine", words()); });
    // Not the classical books' mode: how to get it (koten is the default mode once its models are installed).
    const hint = mode.querySelector(".mode-hint");
    hint.hidden = s.mode === "koten";
    localised(hint.querySelector("span"), el => { el.textContent = t("kotenHint"); });
    mode.hidden = false;
  }).catch(() => {});
}

// What the app's other parts (WebApp.parts, after this script in app.js) may use; nothing else of this closure.
window.KotenApp = Object.freeze({
  t, h, api, apiText, apiError, errorText, readJSON, localised, showError, hideError, lineText, frameOf, fit, strings: STRINGS, jobs,
  showPage, openJob, jobTitle, pageLabel, inLanguage,
  get lang() { return lang; },
});

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
"""#
}
