/// The web app's proofreading (issue 36; docs/serve.md, "The web app" and "Proofreading"): a part of `/app.js`
/// (`WebApp.parts`) and of `/app.css` (`WebApp.styleParts`). It uses only `window.KotenApp` and the `koten:page`
/// event (its `root`: `.sheet` with `.overlay .ol[data-line]`, `.side` with `ol.lines > li[data-line]`, `data-line`
/// the line's position in the page JSON's `lines`). A line clicked (over the image or in the list) or Enter on it is
/// edited in place, beside its image enlarged (a CSS crop of the page image), vertical lines in vertical writing;
/// Enter saves (`PATCH /v1/jobs/{id}/pages/{n}` with `If-Match`, the page's ETag) and opens the next line in reading
/// order, Tab / Shift+Tab move, Escape cancels; no key does anything while an input method's composition is open
/// (`compositionstart`/`compositionend`, `isComposing`, keyCode 229). A save refused (412: the other tab's text
/// shown; offline; 507) is said so and the text stays in the field. Also: corrected lines marked (the engine's
/// reading on request), undo of the last change, a line marked as not text (Delete), a line drawn on the image
/// (`POST …/lines`), the page marked proofread, its state and the job's figures (`GET /v1/jobs/{id}`'s
/// `proofreading`). Its words in English and Japanese, its own table.
extension WebApp {
    static let proofreadingJS = #"""
"use strict";
// Proofreading (issue 36; docs/serve.md, "Proofreading"): a line clicked (over the image or in the list) or Enter on
// it becomes editable in place, with its image enlarged beside the field; saves are PATCHes under If-Match.
(() => {
const K = window.KotenApp;
if (!K) return;
const {h, localised} = K;
const S = {
  en: {
    bar: "Proofreading",
    hint: "Click a line or press Enter on it to correct it. In the field: Enter saves and goes to the next line, Tab / Shift+Tab move, Esc cancels. On a line: Delete marks it as not text (again: text). Ctrl+Z undoes the last change.",
    state_unread: "Not proofread yet", state_inProgress: "Proofreading in progress", state_proofread: "Proofread",
    markProofread: "Mark this page proofread", reopen: "Reopen this page for proofreading",
    undo: "Undo the last change", showModel: "Show the engine's reading", draw: "Draw a missing line",
    figures: "This book: {0} page(s) proofread, {1} line(s) corrected; the engine's character error rate on the proofread pages: {2} ({3} characters).",
    noCER: "none yet",
    field: "Text of line {0}", crop: "Line {0} as on the page",
    model: "The engine read: {0}", corrected: "corrected", notText: "not text", added: "added", review: "check: read again otherwise",
    save: "Save", cancel: "Cancel", markNotText: "Not text",
    saving: "Saving…", saved: "Saved.", reading: "Reading the region drawn…",
    stale: "Not saved: this page was changed in another tab or by another person. Their text of this line: “{0}”. Your edit is kept in the field: Enter saves it over theirs, Esc keeps theirs.",
    staleGone: "Not saved: this page was changed elsewhere; it is shown as it is now. Your edit is kept in the field: Enter saves it.",
    offline: "Not saved: the server cannot be reached (offline?). Your edit is kept in the field: press Enter to try again.",
    full: "Not saved: the server's disk is full. Your edit is kept in the field: press Enter to try again once there is room.",
    failed: "Not saved: {0}. Your edit is kept in the field.",
    actionFailed: "Not done: {0}",
    drawHint: "Drag over the image to draw the missing line, or move the box with the arrow keys (Shift+arrows: its size) and press Enter; Esc cancels.",
    added1: "Line added: the engine read “{0}”. Correct it and press Enter.",
    nothingToUndo: "Nothing to undo.",
    undone: "Undone.",
    draft: "An edit of line {0} not saved when this page was last open ({1}): “{2}”. The line's text now: “{3}”.",
    draftRuby: "An edit of the ruby of line {0} not saved when this page was last open ({1}): “{2}”. The ruby's text now: “{3}”.",
    restore: "Restore it", discard: "Discard it",
    rubyField: "Ruby of “{0}” (line {1})", rubyCorrected: "ruby corrected",
    history: "History", historyPage: "Changes to this page, oldest first", historyLine: "Changes to line {0}, oldest first",
    historyAll: "All lines", historyNone: "No changes yet.", historyFailed: "The history cannot be read: {0}",
    h_time: "When", h_who: "Who", h_line: "Line", h_change: "Change", h_before: "Before", h_after: "After",
    h_page: "the page", h_lineN: "line {0}",
    c_text: "text corrected", c_deleted: "marked not text", c_restored: "marked text again", c_added: "line added",
    c_state: "page state", c_reviewed: "checked", c_reread: "read again",
  },
  ja: {
    bar: "校正",
    hint: "行をクリックするか、行の上でEnterを押すと修正できます。入力欄では Enter で保存して次の行へ、Tab / Shift+Tab で移動、Esc で取り消し。行の上で Delete を押すと「文字でない」とします（もう一度で戻ります）。Ctrl+Z で直前の変更を元に戻します。",
    state_unread: "未校正", state_inProgress: "校正中", state_proofread: "校正済み",
    markProofread: "このページを校正済みにする", reopen: "このページの校正を再開する",
    undo: "直前の変更を元に戻す", showModel: "エンジンの読みを表示", draw: "読み落とした行を囲んで追加",
    figures: "この本：校正済み{0}ページ、修正した行{1}行。校正済みページでのエンジンの文字誤り率：{2}（{3}文字）。",
    noCER: "まだありません",
    field: "{0}行目の本文", crop: "ページ上の{0}行目",
    model: "エンジンの読み：{0}", corrected: "修正済み", notText: "文字でない", added: "追加", review: "要確認：読み直しで結果が変わりました",
    save: "保存", cancel: "取り消し", markNotText: "文字でない",
    saving: "保存中…", saved: "保存しました。", reading: "囲んだ範囲を読み取り中…",
    stale: "保存できませんでした：このページは別のタブか別の人によって変更されています。そちらのこの行の本文：「{0}」。あなたの修正は入力欄に残っています。Enter で上書き保存、Esc でそちらの本文を残します。",
    staleGone: "保存できませんでした：このページは別の所で変更されたため、最新の状態を表示しています。あなたの修正は入力欄に残っています。Enter で保存します。",
    offline: "保存できませんでした：サーバーに接続できません（オフライン？）。修正は入力欄に残っています。Enter でもう一度保存します。",
    full: "保存できませんでした：サーバーのディスクがいっぱいです。修正は入力欄に残っています。空きができたら Enter でもう一度保存してください。",
    failed: "保存できませんでした：{0}。修正は入力欄に残っています。",
    actionFailed: "できませんでした：{0}",
    drawHint: "画像の上をドラッグして読み落とした行を囲むか、矢印キーで枠を動かし（Shift+矢印で大きさ）Enter を押します。Esc で取り消し。",
    added1: "行を追加しました。エンジンの読み：「{0}」。修正して Enter を押してください。",
    nothingToUndo: "元に戻す変更はありません。",
    undone: "元に戻しました。",
    draft: "前回このページを開いたときに保存されなかった{0}行目の修正（{1}）：「{2}」。この行の現在の本文：「{3}」。",
    draftRuby: "前回このページを開いたときに保存されなかった{0}行目のルビの修正（{1}）：「{2}」。このルビの現在の本文：「{3}」。",
    restore: "修正を戻す", discard: "修正を捨てる",
    rubyField: "「{0}」のルビ（{1}行目）", rubyCorrected: "ルビ修正済み",
    history: "履歴", historyPage: "このページの変更（古い順）", historyLine: "{0}行目の変更（古い順）",
    historyAll: "すべての行", historyNone: "まだ変更はありません。", historyFailed: "履歴を読み込めません：{0}",
    h_time: "日時", h_who: "誰が", h_line: "行", h_change: "変更", h_before: "変更前", h_after: "変更後",
    h_page: "ページ", h_lineN: "{0}行目",
    c_text: "本文の修正", c_deleted: "文字でないとした", c_restored: "文字に戻した", c_added: "行の追加",
    c_state: "ページの状態", c_reviewed: "確認済み", c_reread: "読み直し",
  },
};
function t(key, ...args) {
  const s = (S[K.lang] || S.en)[key] ?? S.en[key] ?? key;
  return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}
const say = (el, key, ...args) => localised(el, e => { e.textContent = key ? t(key, ...args) : ""; });
// A line's text as saved: one line, no control characters (the server refuses them).
const clean = s => String(s).replace(/[\r\n\t]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();

const books = new Map();   // job id → {figures: [elements]}
const pages = new Set();   // every page set up (for keeping the edits open when the tab closes)

// ---- unsaved edits kept in the browser (localStorage `koten-drafts:<job>:<page>`: {lineId: {text, seen, at}}) ----------
// Written when a save fails (412, offline, 507, 422, …) and, while an edit is open and changed, when the tab is closed
// or reloaded; removed when the line is saved, cancelled (Escape) or discarded. Offered back when the page is shown.
const draftKey = P => `koten-drafts:${P.job}:${P.n}`;
function drafts(P) {
  try { const d = JSON.parse(localStorage.getItem(draftKey(P)) || "{}"); return d && typeof d === "object" ? d : {}; } catch (e) { return {}; }
}
function keepDraft(P, id, text, seen) {
  try {
    const d = drafts(P);
    d[id] = {text, seen, at: new Date().toISOString()};
    localStorage.setItem(draftKey(P), JSON.stringify(d));
  } catch (e) { /* a private window or a full storage: the edit stays in the field only */ }
}
function dropDraft(P, id) {
  try {
    const d = drafts(P);
    if (!(id in d)) return;
    delete d[id];
    if (Object.keys(d).length) localStorage.setItem(draftKey(P), JSON.stringify(d)); else localStorage.removeItem(draftKey(P));
  } catch (e) { /* nothing kept */ }
  P.draftsEl?.querySelector(`.pr-draft[data-id="${CSS.escape(id)}"]`)?.remove();
}
window.addEventListener("pagehide", () => {
  for (const P of pages) {
    const E = P.editing;
    if (E && P.root.isConnected && dirty(P, E)) keepDrafts(P, E);
  }
});
const when = iso => { const d = new Date(iso); return isNaN(d) ? String(iso || "") : d.toLocaleString(K.lang === "ja" ? "ja-JP" : "en-GB"); };
const positionOf = (P, id) => { const li = itemOf(P, id); return li ? [...P.list.querySelectorAll(":scope > li[data-id]")].indexOf(li) + 1 : id; };

/// The edits kept from an earlier visit, each offered back in the bar: its text, Restore (its field opened with it,
/// Enter saves it), Discard.
function offerDrafts(P) {
  P.draftsEl.replaceChildren();
  for (const [id, d] of Object.entries(drafts(P))) {
    const line = P.byId.get(id);
    if (!line || !d || typeof d.text !== "string" || d.text === line.text) { dropDraft(P, id); continue; }
    const host = line.kind === "ruby" ? bodyOf(P, line) : line;
    if (!host) { dropDraft(P, id); continue; }
    const text = h("span", {class: "pr-draft-text"});
    localised(text, e => { e.textContent = t(host === line ? "draft" : "draftRuby", positionOf(P, host.id), when(d.at), d.text, line.text); });
    const restore = say(h("button", {type: "button", class: "pr-restore"}), "restore");
    const discard = say(h("button", {type: "button", class: "pr-discard"}), "discard");
    const item = h("div", {class: "pr-draft", role: "group", "data-id": id, "data-text": d.text}, text, h("span", {class: "pr-buttons"}, restore, discard));
    restore.addEventListener("click", async () => {
      await open(P, host.id, host === line ? undefined : id);
      const E = P.editing;
      if (!E || E.id !== host.id) return;
      const f = host === line ? E.field : E.rubies.find(r => r.id === id)?.field;
      if (!f) return;
      f.value = d.text;
      E.kept = true;
      f.setSelectionRange(f.value.length, f.value.length);
      item.remove();
    });
    discard.addEventListener("click", () => { dropDraft(P, id); itemOf(P, id)?.focus(); });
    P.draftsEl.append(item);
  }
}

// ---- the page's history (GET …/history): who, when, before, after; the whole page or one line --------------------------
async function showHistory(P) {
  const panel = P.historyEl;
  if (panel.hidden) return;
  let json;
  try { json = await K.api(`v1/jobs/${P.job}/pages/${P.n}/history`); }
  catch (e) { panel.replaceChildren(say(h("p", {class: "pr-history-error"}), "historyFailed", String(e && e.message || e))); return; }
  const only = P.historyLine || null;
  const entries = (json && Array.isArray(json.history) ? json.history : []).filter(e => !only || e.line === only);
  const heading = h("h6", {class: "pr-history-title"});
  localised(heading, e => { e.textContent = only ? t("historyLine", positionOf(P, only)) : t("historyPage"); });
  const parts = [heading];
  if (only) {
    const all = say(h("button", {type: "button", class: "pr-history-all"}), "historyAll");
    all.addEventListener("click", () => { P.historyLine = null; showHistory(P).then(() => P.historyEl.querySelector("button, a")?.focus()); });
    parts.push(all);
  }
  if (!entries.length) parts.push(say(h("p", {class: "pr-history-none"}), "historyNone"));
  else {
    const head = h("tr", {}, ...["h_time", "h_who", "h_line", "h_change", "h_before", "h_after"].map(k => say(h("th", {scope: "col"}), k)));
    const value = (e, v) => e.change === "state" && v ? t("state_" + v) : (v ?? "");
    const rows = entries.map(e => {
      let where;
      if (e.line) {
        where = h("button", {type: "button", class: "pr-history-line", "data-id": e.line});
        localised(where, el => { el.textContent = t("h_lineN", positionOf(P, e.line)); });
        if (!only) where.addEventListener("click", () => { P.historyLine = e.line; showHistory(P).then(() => P.historyEl.querySelector(".pr-history-all")?.focus()); });
        else where.disabled = true;
      } else where = say(h("span", {}), "h_page");
      const row = h("tr", {class: "pr-history-row", "data-line": e.line || "", "data-change": e.change || "", "data-revision": e.revision ?? ""},
                    localised(h("td", {class: "pr-h-time"}), el => { el.textContent = when(e.time); }), h("td", {class: "pr-h-who", lang: "en"}, e.who || ""),
                    h("td", {class: "pr-h-line"}, where), say(h("td", {class: "pr-h-change"}), "c_" + e.change),
                    localised(h("td", {class: "pr-h-before", lang: "ja"}), el => { el.textContent = value(e, e.before); el.dataset.label = t("h_before"); }),
                    localised(h("td", {class: "pr-h-after", lang: "ja"}), el => { el.textContent = value(e, e.after); el.dataset.label = t("h_after"); }));
      return row;
    });
    parts.push(h("table", {class: "pr-history-table"}, h("thead", {}, head), h("tbody", {}, ...rows)));
  }
  panel.replaceChildren(...parts);
  panel.dataset.loaded = String(json && json.revision);
}
function toggleHistory(P, line) {
  const on = line !== undefined ? true : P.historyEl.hidden;
  P.historyLine = line || null;
  P.historyEl.hidden = !on;
  P.historyButton.setAttribute("aria-pressed", String(on));
  if (on) return showHistory(P);
  P.historyEl.replaceChildren();
  delete P.historyEl.dataset.loaded;
}

document.addEventListener("koten:page", e => { try { setup(e.detail); } catch (err) { K.showError(String(err && err.message || err)); } });

function setup(d) {
  const root = d.root, result = d.result;
  if (!root || !result || !Array.isArray(result.lines)) return;
  const P = {job: d.job, n: d.page, root, result, etag: `"${result.revision}"`, undo: [], editing: null, busy: false,
             sheet: root.querySelector(".sheet"), overlay: root.querySelector(".overlay"), side: root.querySelector(".side"),
             width: result.source?.width || 1, height: result.source?.height || 1};
  P.list = P.side.querySelector("ol.lines");
  root._proof = P;
  root.classList.add("proof");
  index(P);
  // Each element of a line is tagged with its stable id (data-line is the position in this rendering).
  for (const el of root.querySelectorAll(".ol[data-line], ol.lines > li[data-line]")) {
    const line = P.result.lines[Number(el.dataset.line)];
    if (line) el.dataset.id = line.id;
  }
  if (!P.list) { P.list = h("ol", {class: "lines", lang: "ja"}); P.side.append(P.list); }
  const items = [...P.list.querySelectorAll(":scope > li[data-id]")];
  items.forEach((li, i) => { li.tabIndex = i === 0 ? 0 : -1; });
  bar(P);
  render(P);
  pages.add(P);
  offerDrafts(P);
  P.list.addEventListener("click", e => {
    const li = e.target.closest?.("li[data-id]");
    if (li && !e.target.closest(".pr-editor")) open(P, li.dataset.id);
  });
  P.list.addEventListener("keydown", e => listKey(P, e));
  P.list.addEventListener("focusin", e => {
    const li = e.target.closest?.("li[data-id]");
    if (li && e.target === li) roving(P, li);
  });
  if (P.overlay) {
    P.overlay.addEventListener("click", e => {
      if (P.drawing) return;
      const ol = e.target.closest?.(".ol[data-id]");
      const line = ol && P.byId.get(ol.dataset.id);
      if (line && line.kind === "ruby") { const body = bodyOf(P, line); if (body && itemOf(P, body.id)) open(P, body.id, line.id); }
      else if (ol && itemOf(P, ol.dataset.id)) open(P, ol.dataset.id);
    });
  }
  root.addEventListener("keydown", e => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && (e.key === "z" || e.key === "Z") && !e.target.closest?.("textarea,input")) {
      e.preventDefault(); undo(P);
    }
  });
  figures(P);
}

function index(P) {
  P.byId = new Map(P.result.lines.map(l => [l.id, l]));
}
const itemOf = (P, id) => P.list.querySelector(`:scope > li[data-id="${CSS.escape(id)}"]`);
const overOf = (P, id) => P.overlay ? P.overlay.querySelector(`.ol[data-id="${CSS.escape(id)}"]`) : null;
const bodyLines = P => P.result.lines.filter(l => l.kind !== "ruby");

// ---- the page's bar: its state, mark proofread, undo, the engine's reading, draw a line, the book's figures ------------
function bar(P) {
  const state = h("span", {class: "pr-state", role: "status"});
  const mark = h("button", {type: "button", class: "pr-mark"});
  const undoButton = h("button", {type: "button", class: "pr-undo", disabled: true});
  const model = h("button", {type: "button", class: "pr-show-model", "aria-pressed": "false"});
  const draw = h("button", {type: "button", class: "pr-draw", "aria-pressed": "false"});
  const historyButton = h("button", {type: "button", class: "pr-history-button", "aria-pressed": "false"});
  say(undoButton, "undo"); say(model, "showModel"); say(draw, "draw"); say(historyButton, "history");
  const draftsEl = h("div", {class: "pr-drafts", role: "region"});
  const historyEl = h("div", {class: "pr-history", hidden: true});
  const msg = h("p", {class: "pr-msg", role: "status", "aria-live": "polite"});
  const fig = h("p", {class: "pr-figures"});
  const hint = h("p", {class: "pr-hint"});
  say(hint, "hint");
  const title = h("h5", {class: "pr-title"});
  say(title, "bar");
  const el = h("div", {class: "pr-bar"}, h("div", {class: "pr-row"}, title, state), h("div", {class: "pr-row"}, mark, undoButton, model, draw, historyButton), fig, hint, draftsEl, msg, historyEl);
  P.side.prepend(el);
  Object.assign(P, {barEl: el, stateEl: state, markEl: mark, undoEl: undoButton, msgEl: msg, figEl: fig, drawEl: draw, draftsEl, historyEl, historyButton});
  historyButton.addEventListener("click", () => toggleHistory(P));
  mark.addEventListener("click", async () => {
    if (P.editing && !(await leave(P))) return;
    const next = P.result.state === "proofread" ? "inProgress" : "proofread";
    const before = P.result.state;
    if (await change(P, {state: next})) { P.undo.push({state: before === "unread" ? "inProgress" : before}); sync(P); }
  });
  undoButton.addEventListener("click", () => undo(P));
  model.addEventListener("click", () => {
    const on = !P.root.classList.contains("pr-models");
    P.root.classList.toggle("pr-models", on);
    model.setAttribute("aria-pressed", String(on));
  });
  draw.addEventListener("click", () => (P.drawing ? stopDrawing(P) : startDrawing(P)));
  const book = books.get(P.job) || {figures: new Set()};
  book.figures.add(fig);
  books.set(P.job, book);
}

function sync(P) {
  const state = P.result.state || "unread";
  P.root.dataset.proofState = state;
  P.stateEl.className = "pr-state " + state;
  say(P.stateEl, "state_" + state);
  say(P.markEl, state === "proofread" ? "reopen" : "markProofread");
  P.undoEl.disabled = P.undo.length === 0;
}

async function figures(P) {
  let job;
  try { job = await K.api(`v1/jobs/${P.job}`); } catch (e) { return; }
  const f = job && job.proofreading;
  if (!f) return;
  for (const el of books.get(P.job)?.figures || []) {
    if (!el.isConnected) continue;
    el.dataset.pages = f.pagesProofread; el.dataset.lines = f.linesCorrected; el.dataset.characters = f.characters;
    el.dataset.cer = f.modelCER ?? "";
    localised(el, e => {
      const cer = typeof f.modelCER === "number" ? `${(f.modelCER * 100).toFixed(1)} %` : t("noCER");
      e.textContent = t("figures", f.pagesProofread, f.linesCorrected, cer, f.characters);
    });
  }
}

// ---- showing the lines as they are now --------------------------------------------------------------------------
function rubiesOf(P, line) {
  return P.result.lines.filter(l => l.kind === "ruby" && l.annotates && l.annotates.line === line.readingOrder);
}
/// The body line a ruby line annotates (its `annotates.line`, a reading order).
function bodyOf(P, ruby) {
  return ruby && ruby.annotates ? bodyLines(P).find(l => l.readingOrder === ruby.annotates.line) || null : null;
}
/// The characters of the engine's reading a ruby stands over.
function rubyBase(line, ruby) {
  const chars = Array.isArray(line.characters) ? line.characters : [];
  return chars.slice(ruby.annotates.start, ruby.annotates.end).map(c => c.text).join("") || "…";
}
function paint(P, li, line) {
  li.className = `${line.orientation === "vertical" ? "v" : "h"}${line.corrected ? " pr-corrected" : ""}${line.deleted ? " pr-deleted" : ""}${line.added ? " pr-added" : ""}${line.review ? " pr-review" : ""}`;
  const text = h("span", {class: "pr-text"}, K.lineText(line, line.corrected ? null : rubiesOf(P, line)));
  const parts = [text];
  if (typeof line.confidence === "number" && !line.corrected) parts.push(h("small", {lang: "en"}, `${Math.round(line.confidence * 100)}%`));
  for (const [flag, key] of [["corrected", "corrected"], ["deleted", "notText"], ["added", "added"], ["review", "review"]]) {
    if (line[flag]) parts.push(say(h("small", {class: `pr-tag pr-tag-${flag}`}), key));
  }
  if ((line.corrected || line.deleted || line.added) && line.modelText !== line.text) {
    parts.push(say(h("small", {class: "pr-model", lang: K.lang}), "model", line.modelText || "∅"));
  }
  if (rubiesOf(P, line).some(r => r.corrected)) parts.push(say(h("small", {class: "pr-tag pr-tag-ruby"}), "rubyCorrected"));
  li.replaceChildren(...parts);
}

/// Every line's list item and outline from `P.result` (added lines get theirs; the one being edited is left as it is).
function render(P) {
  const lines = bodyLines(P);
  let order = false;
  for (const line of lines) {
    let li = itemOf(P, line.id);
    if (!li) {
      li = h("li", {"data-line": line.id, "data-id": line.id, tabindex: -1});
      P.list.append(li);
      order = true;
      if (P.overlay && !overOf(P, line.id)) {
        const f = K.frameOf(line), v = line.orientation === "vertical";
        const ol = h("div", {class: `ol ${v ? "v" : "h"}`, "data-line": line.id, "data-id": line.id,
                             "data-box": `${line.box.x} ${line.box.y} ${line.box.width} ${line.box.height}`}, h("span", {class: "t"}));
        ol.style.cssText = `left:${f.x}px;top:${f.y}px;width:${f.w}px;height:${f.h}px;font-size:${Math.max(1, v ? f.w : f.h)}px;`;
        P.overlay.append(ol);
      }
    }
    if (!(P.editing && P.editing.id === line.id)) paint(P, li, line);
    const ol = overOf(P, line.id);
    if (ol) {
      ol.classList.toggle("pr-corrected", !!line.corrected);
      ol.classList.toggle("pr-deleted", !!line.deleted);
      const span = ol.querySelector(".t");
      if (span && span.textContent !== line.text) { span.textContent = line.text || ""; span.style.transform = ""; }
    }
  }
  if (order) {
    const focused = document.activeElement;
    lines.forEach((line, i) => { const li = itemOf(P, line.id); li.value = i + 1; P.list.append(li); });
    if (focused && focused.isConnected && document.activeElement !== focused) focused.focus();
  }
  K.fit(P.root);
  sync(P);
}

function apply(P, page, etag) {
  P.result = page;
  P.etag = etag || `"${page.revision}"`;
  index(P);
  render(P);
  figures(P);
  if (!P.historyEl.hidden) showHistory(P);
}

// ---- the list by keyboard ----------------------------------------------------------------------------------------
function roving(P, li) {
  for (const x of P.list.querySelectorAll(":scope > li[data-id]")) x.tabIndex = x === li ? 0 : -1;
}
function neighbour(P, id, step) {
  const items = [...P.list.querySelectorAll(":scope > li[data-id]")];
  const i = items.findIndex(li => li.dataset.id === id);
  return i < 0 ? null : items[i + step] || null;
}
function listKey(P, e) {
  const li = e.target.closest?.("li[data-id]");
  if (!li || e.target !== li || e.isComposing || e.keyCode === 229) return;
  const vertical = getComputedStyle(P.list).writingMode.startsWith("vertical");
  const next = vertical ? ["ArrowDown", "ArrowLeft"] : ["ArrowDown"], prev = vertical ? ["ArrowUp", "ArrowRight"] : ["ArrowUp"];
  if (e.key === "Enter" || e.key === "F2") { e.preventDefault(); open(P, li.dataset.id); }
  else if (e.key === "Delete") { e.preventDefault(); toggleNotText(P, li.dataset.id); }
  else if (next.includes(e.key) || prev.includes(e.key)) {
    const to = neighbour(P, li.dataset.id, next.includes(e.key) ? 1 : -1);
    if (to) { e.preventDefault(); roving(P, to); to.focus(); }
  }
}

// ---- editing a line in place --------------------------------------------------------------------------------------
function crop(P, line, vertical, room) {
  const pad = 4, b = line.box;
  const x = Math.max(0, b.x - pad), y = Math.max(0, b.y - pad);
  const w = Math.min(P.width, b.x + b.width + pad) - x, hgt = Math.min(P.height, b.y + b.height + pad) - y;
  const k = vertical ? Math.min(88 / w, 520 / hgt, 6) : Math.min(Math.max(120, room) / w, 88 / hgt, 6);
  const img = P.sheet && P.sheet.querySelector("img");
  const src = img ? (img.currentSrc || img.src) : `v1/jobs/${P.job}/pages/${P.n}/image`;
  const el = h("div", {class: "pr-crop", role: "img"});
  el.style.width = `${Math.round(w * k)}px`;
  el.style.height = `${Math.round(hgt * k)}px`;
  el.style.backgroundImage = `url("${src.replace(/["\\]/g, c => encodeURIComponent(c))}")`;
  el.style.backgroundSize = `${P.width * k}px ${P.height * k}px`;
  el.style.backgroundPosition = `${-x * k}px ${-y * k}px`;
  return el;
}

/// Opens line `id`'s editor (its ruby's fields under its own); `focusRuby`: the ruby line whose field gets the focus.
async function open(P, id, focusRuby) {
  if (P.drawing) stopDrawing(P);
  if (P.editing) {
    if (P.editing.id === id) { (P.editing.rubies.find(r => r.id === focusRuby)?.field || P.editing.field).focus(); return; }
    if (!(await leave(P))) return;
  }
  const line = P.byId.get(id), li = itemOf(P, id);
  if (!line || !li) return;
  const vertical = line.orientation === "vertical";
  const position = [...P.list.querySelectorAll(":scope > li[data-id]")].indexOf(li) + 1;
  const field = h("textarea", {class: "pr-field", rows: 1, lang: "ja", spellcheck: "false", autocomplete: "off"});
  localised(field, el => el.setAttribute("aria-label", t("field", position)));
  field.value = line.text || "";
  const picture = crop(P, line, vertical, li.clientWidth - 24);
  if (vertical) field.style.minHeight = `max(12em, ${picture.style.height})`;   // the field as tall as its column's image
  localised(picture, el => el.setAttribute("aria-label", t("crop", position)));
  const model = say(h("p", {class: "pr-engine"}), "model", line.modelText || "∅");
  const msg = h("p", {class: "pr-edit-msg", role: "alert"});
  const save = say(h("button", {type: "button", tabindex: -1}), "save");
  const cancel = say(h("button", {type: "button", tabindex: -1}), "cancel");
  const notText = say(h("button", {type: "button", tabindex: -1}), "markNotText");
  const lineHistory = say(h("button", {type: "button", tabindex: -1, class: "pr-line-history"}), "history");
  const editor = h("div", {class: `pr-editor ${vertical ? "pr-v" : "pr-h"}`},
                   h("div", {class: "pr-pair"}, picture, field), rubiesOf(P, line).length ? h("div", {class: "pr-rubies"}) : null, model,
                   h("div", {class: "pr-buttons"}, save, cancel, notText, lineHistory), msg);
  // Each ruby of the line: its own field, saved with the line (Tab goes through the line's fields, then on).
  const rubies = rubiesOf(P, line).map(r => {
    const f = h("input", {type: "text", class: "pr-ruby-field", lang: "ja", spellcheck: "false", autocomplete: "off", "data-id": r.id});
    f.value = r.text || "";
    localised(f, el => el.setAttribute("aria-label", t("rubyField", rubyBase(line, r), position)));
    const label = h("span", {class: "pr-ruby-base", lang: "ja", "aria-hidden": "true"}, rubyBase(line, r));
    editor.querySelector(".pr-rubies")?.append(h("label", {class: "pr-ruby"}, label, f));
    return {id: r.id, field: f, base: r.text || ""};
  });
  const E = {id, li, field, msg, rubies, base: line.text || "", composing: false, busy: false};
  P.editing = E;
  li.classList.add("pr-editing");
  li.replaceChildren(editor);
  roving(P, li);
  overOf(P, id)?.classList.add("pr-current");
  const fields = [field, ...rubies.map(r => r.field)];
  const drop = () => { dropDraft(P, id); for (const r of rubies) dropDraft(P, r.id); };
  for (const f of fields) {
    f.addEventListener("compositionstart", () => { E.composing = true; });
    // Once a save of it failed, the edit kept in the browser follows what is typed.
    f.addEventListener("input", () => { if (E.kept && !E.composing) keepDrafts(P, E); });
    f.addEventListener("compositionend", () => { E.composing = false; });
    // A line has no line break: none is typed (an Enter the input method passes on included), none pasted.
    f.addEventListener("beforeinput", e => { if (e.inputType === "insertLineBreak" || e.inputType === "insertParagraph") e.preventDefault(); });
    f.addEventListener("keydown", e => {
      // An input method's composition is open: its keys (Enter chooses a conversion) are the IME's, never ours.
      if (e.isComposing || e.keyCode === 229 || E.composing) return;
      if (e.key === "Enter" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) { e.preventDefault(); move(P, E, 1); }
      else if (e.key === "Tab" && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        const next = fields[fields.indexOf(f) + (e.shiftKey ? -1 : 1)];
        if (next) { next.focus(); next.select?.(); } else move(P, E, e.shiftKey ? -1 : 1);
      }
      else if (e.key === "Escape") { e.preventDefault(); drop(); close(P, E, true); }
    });
  }
  save.addEventListener("click", () => move(P, E, 0));
  cancel.addEventListener("click", () => { drop(); close(P, E, true); });
  lineHistory.addEventListener("click", () => toggleHistory(P, id));
  notText.addEventListener("click", async () => { close(P, E, true); await toggleNotText(P, id); });
  li.scrollIntoView?.({block: "nearest", inline: "nearest"});
  const first = rubies.find(r => r.id === focusRuby)?.field || field;
  first.focus();
  first.setSelectionRange(first.value.length, first.value.length);
}

const bodyDirty = (P, E) => clean(E.field.value) !== (P.byId.get(E.id)?.text ?? E.base) || !!P.byId.get(E.id)?.deleted && clean(E.field.value) !== "";
const rubyEdits = (P, E) => (E.rubies || []).filter(r => clean(r.field.value) !== (P.byId.get(r.id)?.text ?? r.base)).map(r => ({id: r.id, text: clean(r.field.value)}));
const dirty = (P, E) => bodyDirty(P, E) || rubyEdits(P, E).length > 0;
/// Keeps the editor's changed texts (the line's, its ruby's) in the browser.
function keepDrafts(P, E) {
  if (bodyDirty(P, E)) keepDraft(P, E.id, clean(E.field.value), E.base);
  for (const r of E.rubies || []) {
    if (clean(r.field.value) !== (P.byId.get(r.id)?.text ?? r.base)) keepDraft(P, r.id, clean(r.field.value), r.base);
  }
}

function close(P, E, focus) {
  if (P.editing !== E) return;
  P.editing = null;
  overOf(P, E.id)?.classList.remove("pr-current");
  const line = P.byId.get(E.id);
  if (line && E.li.isConnected) paint(P, E.li, line);
  if (focus && E.li.isConnected) E.li.focus();
}

/// Leaves the line being edited: saved first when changed. False (the editor kept, its message shown) when it could not be.
async function leave(P) {
  const E = P.editing;
  if (!E) return true;
  if (E.busy) return false;
  if (dirty(P, E) && !(await store(P, E))) return false;
  close(P, E, false);
  return true;
}

/// Enter (step 1), Tab (1) / Shift+Tab (-1), Save (0): saves a change, then opens the next or previous line in reading
/// order (after the last: the page's "mark proofread").
async function move(P, E, step) {
  if (E.busy) return;
  if (dirty(P, E) && !(await store(P, E))) return;
  const to = step ? neighbour(P, E.id, step) : null;
  close(P, E, !to);
  if (to) open(P, to.dataset.id);
  else if (step > 0) P.markEl.focus();
}

/// PATCHes `body` with the page's ETag: {ok} or {kind: "stale" | "offline" | "full" | "other", message}.
async function patch(P, body) {
  let response;
  try {
    response = await fetch(`v1/jobs/${P.job}/pages/${P.n}`, {method: "PATCH", headers: {"If-Match": P.etag, "Content-Type": "application/json"},
                                                               body: JSON.stringify(body)});
  } catch (e) { return {kind: "offline"}; }
  const json = await K.readJSON(response);
  if (response.ok && json) { apply(P, json, response.headers.get("ETag")); return {ok: true}; }
  if (response.status === 412) return {kind: "stale"};
  if (response.status === 507) return {kind: "full"};
  return {kind: "other", message: K.apiError(response, json)};
}

/// The page as the server has it now (after a 412): shown, except the line being edited.
async function refresh(P) {
  let response;
  try { response = await fetch(`v1/jobs/${P.job}/pages/${P.n}?format=json`, {cache: "no-store"}); } catch (e) { return false; }
  const json = await K.readJSON(response);
  if (!response.ok || !json) return false;
  apply(P, json, response.headers.get("ETag"));
  return true;
}

/// Saves the editor's text. True when saved; otherwise the text stays in the field and the reason is said.
async function store(P, E) {
  E.busy = true;
  say(E.msg, "saving");
  E.li.classList.add("pr-saving");
  try {
    const before = P.byId.get(E.id);
    const edit = {id: E.id, text: clean(E.field.value)};
    if (before && before.deleted) edit.deleted = false;
    // The line's edit (unless only its ruby changed) and its ruby's.
    const rubies = rubyEdits(P, E), withBody = bodyDirty(P, E) || !rubies.length;
    const lines = [...(withBody ? [edit] : []), ...rubies];
    const seenRuby = new Map(rubies.map(x => [x.id, P.byId.get(x.id)?.text]));
    const undoEntry = {lines: [...(withBody ? [{id: E.id, text: before ? before.text : E.base, deleted: !!(before && before.deleted)}] : []),
                               ...rubies.map(x => ({id: x.id, text: seenRuby.get(x.id) ?? ""}))]};
    let r = await patch(P, {lines});
    if (r.kind === "stale") {
      const seen = before ? before.text : E.base;
      if (!(await refresh(P))) r = {kind: "offline"};
      else {
        const theirs = P.byId.get(E.id);
        // Only another line changed: this line is as it was read, so the edit goes on the page as it is now.
        const rubiesAsSeen = rubies.every(x => P.byId.get(x.id)?.text === seenRuby.get(x.id));
        if (theirs && theirs.text === seen && !!theirs.deleted === !!(before && before.deleted) && rubiesAsSeen) r = await patch(P, {lines});
        if (r.kind === "stale") {
          E.li.classList.add("pr-conflict");
          if (theirs) say(E.msg, "stale", theirs.text); else say(E.msg, "staleGone");
          E.msg.dataset.kind = "stale";
          if (theirs) E.msg.dataset.theirs = theirs.text;
          E.kept = true;
          keepDrafts(P, E);
          return false;
        }
      }
    }
    if (!r.ok) {
      E.msg.dataset.kind = r.kind;
      if (r.kind === "other") say(E.msg, "failed", r.message); else say(E.msg, r.kind);
      E.kept = true;
      keepDrafts(P, E);
      return false;
    }
    dropDraft(P, E.id);
    for (const x of E.rubies || []) dropDraft(P, x.id);
    E.kept = false;
    P.undo.push(undoEntry);
    sync(P);
    E.li.classList.remove("pr-conflict");
    say(P.msgEl, "saved");
    return true;
  } finally {
    E.busy = false;
    E.li.classList.remove("pr-saving");
    if (P.editing === E && E.msg.dataset.kind) E.field.focus();
  }
}

/// A change from the bar or the list (not text, state, undo): said in the bar when it fails.
async function change(P, body) {
  if (P.busy) return false;
  P.busy = true;
  try {
    let r = await patch(P, body);
    if (r.kind === "stale" && (await refresh(P))) r = {kind: "stale-shown"};
    if (r.ok) { P.msgEl.dataset.kind = ""; say(P.msgEl, "saved"); return true; }
    P.msgEl.dataset.kind = r.kind;
    if (r.kind === "stale-shown") say(P.msgEl, "staleGone");
    else if (r.kind === "other") say(P.msgEl, "actionFailed", r.message);
    else say(P.msgEl, r.kind);
    return false;
  } finally { P.busy = false; }
}

async function toggleNotText(P, id) {
  const line = P.byId.get(id);
  if (!line) return;
  if (await change(P, {lines: [{id, deleted: !line.deleted}]})) { P.undo.push({lines: [{id, deleted: !!line.deleted}]}); sync(P); }
  itemOf(P, id)?.focus();
}

async function undo(P) {
  if (P.editing && !(await leave(P))) return;
  const last = P.undo.pop();
  if (!last) { say(P.msgEl, "nothingToUndo"); sync(P); return; }
  if (await change(P, last)) say(P.msgEl, "undone"); else P.undo.push(last);
  sync(P);
  const id = last.lines && last.lines[0] && last.lines[0].id;
  if (id && itemOf(P, id)) itemOf(P, id).focus(); else P.undoEl.focus();
}

// ---- drawing a missing line -------------------------------------------------------------------------------------
function startDrawing(P) {
  if (!P.overlay || P.drawing) return;
  if (P.editing) close(P, P.editing, false);
  const vertical = bodyLines(P).filter(l => l.orientation === "vertical").length * 2 > bodyLines(P).length;
  const w = vertical ? P.width / 16 : P.width / 3, hgt = vertical ? P.height / 3 : P.height / 20;
  const box = {x: (P.width - w) / 2, y: (P.height - hgt) / 2, width: w, height: hgt};
  const el = h("div", {class: "pr-box", tabindex: 0, role: "application"});
  localised(el, e => e.setAttribute("aria-label", t("drawHint")));
  const D = {box, el};
  const place = () => { el.style.cssText = `left:${D.box.x}px;top:${D.box.y}px;width:${D.box.width}px;height:${D.box.height}px`; };
  place();
  P.overlay.append(el);
  P.sheet.classList.add("pr-drawing");
  P.drawing = D;
  P.drawEl.setAttribute("aria-pressed", "true");
  say(P.msgEl, "drawHint");
  const at = e => {
    const r = P.overlay.getBoundingClientRect();
    return [Math.min(P.width, Math.max(0, (e.clientX - r.left) * P.width / r.width)), Math.min(P.height, Math.max(0, (e.clientY - r.top) * P.height / r.height))];
  };
  D.down = e => {
    if (e.button !== 0) return;
    e.preventDefault();
    D.start = at(e);
    P.overlay.setPointerCapture?.(e.pointerId);
  };
  D.moved = e => {
    if (!D.start) return;
    const [x, y] = at(e);
    D.box = {x: Math.min(x, D.start[0]), y: Math.min(y, D.start[1]), width: Math.abs(x - D.start[0]), height: Math.abs(y - D.start[1])};
    place();
  };
  D.up = e => {
    if (!D.start) return;
    D.moved(e);
    D.start = null;
    if (D.box.width >= 4 && D.box.height >= 4) addLine(P); else el.focus();
  };
  D.key = e => {
    const step = e.altKey ? 1 : Math.max(2, Math.round(Math.min(P.width, P.height) / 100));
    const b = D.box;
    const moves = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
    if (moves[e.key]) {
      e.preventDefault();
      const [dx, dy] = moves[e.key];
      if (e.shiftKey) { b.width = Math.max(4, b.width + dx * step); b.height = Math.max(4, b.height + dy * step); }
      else { b.x = Math.min(P.width - b.width, Math.max(0, b.x + dx * step)); b.y = Math.min(P.height - b.height, Math.max(0, b.y + dy * step)); }
      place();
    } else if (e.key === "Enter") { e.preventDefault(); addLine(P); }
    else if (e.key === "Escape") { e.preventDefault(); stopDrawing(P); P.drawEl.focus(); }
  };
  P.overlay.addEventListener("pointerdown", D.down);
  P.overlay.addEventListener("pointermove", D.moved);
  P.overlay.addEventListener("pointerup", D.up);
  el.addEventListener("keydown", D.key);
  el.scrollIntoView?.({block: "center", inline: "nearest"});
  el.focus({preventScroll: true});
}

function stopDrawing(P) {
  const D = P.drawing;
  if (!D) return;
  P.overlay.removeEventListener("pointerdown", D.down);
  P.overlay.removeEventListener("pointermove", D.moved);
  P.overlay.removeEventListener("pointerup", D.up);
  D.el.remove();
  P.sheet.classList.remove("pr-drawing");
  P.drawing = null;
  P.drawEl.setAttribute("aria-pressed", "false");
}

async function addLine(P) {
  const D = P.drawing;
  if (!D || D.sending) return;
  D.sending = true;
  const b = D.box;
  const box = {x: Math.round(b.x), y: Math.round(b.y), width: Math.max(2, Math.round(b.width)), height: Math.max(2, Math.round(b.height))};
  say(P.msgEl, "reading");
  let response, json;
  try {
    response = await fetch(`v1/jobs/${P.job}/pages/${P.n}/lines`, {method: "POST", headers: {"If-Match": P.etag, "Content-Type": "application/json"},
      body: JSON.stringify({box, orientation: box.height > box.width ? "vertical" : "horizontal"})});
    json = await K.readJSON(response);
  } catch (e) { response = null; }
  D.sending = false;
  if (!response) { P.msgEl.dataset.kind = "offline"; say(P.msgEl, "actionFailed", t("offline")); D.el.focus(); return; }
  if (response.status === 412) { await refresh(P); P.msgEl.dataset.kind = "stale"; say(P.msgEl, "staleGone"); D.el.focus(); return; }
  if (!response.ok || !json) { P.msgEl.dataset.kind = "other"; say(P.msgEl, "actionFailed", K.apiError(response, json)); D.el.focus(); return; }
  stopDrawing(P);
  apply(P, json, response.headers.get("ETag"));
  const id = json.line, line = P.byId.get(id);
  P.undo.push({lines: [{id, deleted: true}]});
  sync(P);
  P.msgEl.dataset.kind = "";
  say(P.msgEl, "added1", line ? line.modelText : "");
  if (line) open(P, id);
}
})();
"""#

    /// The proofreading's style, appended to `/app.css`.
    static let proofreadingCSS = #"""
/* while a line is edited its field shows the line enlarged: the viewer's loupe (sticky over the list) steps aside */
.side:has(li.pr-editing) .loupe{visibility:hidden}
.pr-bar{margin:0 0 .6rem;padding:.5rem .7rem;border:1px solid var(--line);border-radius:.4rem;background:#fafaf8}
.pr-row{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem .6rem;margin:.2rem 0}
.pr-title{margin:0;font-size:.95rem}
.pr-state{font-size:.9rem;padding:.05rem .6rem;border-radius:1rem;background:#e6e6ea}
.pr-state.inProgress{background:#fff1c2}
.pr-state.proofread{background:#d7efe6;font-weight:600}
.pr-bar button{font-size:.9rem;padding:.2rem .6rem}
.pr-bar button[aria-pressed=true]{background:#dcebf7;border-color:var(--blue)}
.pr-figures,.pr-hint{margin:.3rem 0 0;font-size:.88rem;color:var(--muted)}
.pr-msg:empty,.pr-edit-msg:empty{display:none}
.pr-msg{margin:.3rem 0 0;font-size:.9rem}
.pr-msg[data-kind=stale],.pr-msg[data-kind=offline],.pr-msg[data-kind=full],.pr-msg[data-kind=other]{color:#a33a00;font-weight:600}
.proof ol.lines>li{cursor:pointer}
.proof ol.lines>li:focus-visible{outline:3px solid var(--blue);outline-offset:1px}
.proof .overlay .ol:not(.ruby){cursor:pointer}
.lines li.pr-corrected{background:#e7f5ee;box-shadow:inset 3px 0 0 var(--green)}
.lines li.pr-deleted .pr-text{text-decoration:line-through;color:var(--muted)}
.lines li.pr-review{box-shadow:inset 3px 0 0 #e0a800}
.pr-tag{display:inline-block;margin-left:.4rem;padding:0 .35rem;border-radius:.6rem;font-size:.72rem;background:#e6e6ea;color:var(--ink)}
.pr-tag-corrected{background:#cdebdc}
.pr-tag-deleted{background:#f2d3c4}
.pr-tag-review{background:#ffe8a3}
.pr-model{display:none;color:var(--muted)}
.pr-models .pr-model{display:block;margin-left:0}
.overlay .ol.pr-corrected{outline-color:rgba(0,158,115,.9);background:rgba(0,158,115,.10)}
.overlay .ol.pr-deleted{outline-style:dashed;background:repeating-linear-gradient(45deg,rgba(120,120,120,.18) 0 6px,transparent 6px 12px)}
.overlay .ol.pr-current{outline:calc(3px * var(--u)) solid var(--blue);background:rgba(0,114,178,.12)}
.lines li.pr-editing{cursor:auto;background:#eef5fb;padding:.4rem}
.pr-editor{writing-mode:horizontal-tb;display:flex;flex-direction:column;gap:.35rem}
.pr-pair{display:flex;gap:.6rem;align-items:flex-start}
.pr-h .pr-pair{flex-direction:column;align-items:stretch}
.pr-v .pr-pair{flex-direction:row-reverse;justify-content:flex-end;align-items:stretch}
.pr-crop{flex:none;background-repeat:no-repeat;background-color:#fff;box-shadow:0 0 2px #666;max-width:100%}
.pr-field{font:inherit;font-size:1.25rem;line-height:1.6;padding:.3rem .45rem;border:2px solid var(--blue);border-radius:.3rem;background:#fff;color:var(--ink);resize:none}
.pr-h .pr-field{width:100%;min-height:2.6em}
.pr-v .pr-field{writing-mode:vertical-rl;text-orientation:mixed;min-width:2.6em;width:auto;min-height:12em}
.pr-engine{margin:0;font-size:.85rem;color:var(--muted)}
.pr-rubies{display:flex;flex-wrap:wrap;gap:.3rem .8rem}
.pr-ruby{display:flex;align-items:center;gap:.3rem;font-size:.9rem}
.pr-ruby-base{color:var(--muted)}
.pr-ruby-field{font:inherit;font-size:1rem;width:6em;padding:.1rem .3rem;border:2px solid var(--blue);border-radius:.3rem}
.pr-tag-ruby{background:#cdebdc}
.pr-buttons{display:flex;gap:.4rem}
.pr-buttons button{font-size:.85rem;padding:.1rem .5rem}
.pr-edit-msg{margin:0;padding:.35rem .6rem;border-left:5px solid var(--vermilion);background:#fdece4;font-size:.92rem}
.lines li.pr-saving .pr-field{border-style:dashed}
.lines li.pr-conflict .pr-field{border-color:var(--vermilion)}
.sheet.pr-drawing .overlay{cursor:crosshair}
.pr-box{position:absolute;outline:calc(3px * var(--u,1)) dashed var(--blue);background:rgba(0,114,178,.15)}
.pr-box:focus{outline-style:solid}
.pr-drafts:empty{display:none}
.pr-draft{margin:.4rem 0 0;padding:.35rem .6rem;border-left:5px solid #e0a800;background:#fff6d6;font-size:.9rem;display:flex;flex-direction:column;gap:.3rem}
.pr-history{margin:.5rem 0 0;font-size:.85rem;max-height:24rem;overflow:auto}
.pr-history-title{margin:.2rem 0;font-size:.9rem}
.pr-history-table,.pr-history-table tbody{display:block;width:100%}
.pr-history-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.pr-history-table tr{display:grid;grid-template-columns:auto auto auto 1fr;gap:.1rem .5rem;align-items:baseline;padding:.3rem 0;border-bottom:1px solid var(--line)}
.pr-history-table td{padding:0}
.pr-h-who{color:var(--muted)}
.pr-h-before,.pr-h-after{grid-column:1/-1}
.pr-h-before:not(:empty)::before,.pr-h-after:not(:empty)::before{content:attr(data-label) "："; color:var(--muted)}
.pr-h-before{text-decoration:line-through;text-decoration-color:rgba(0,0,0,.35)}
.pr-history-table button{font-size:.8rem;padding:0 .3rem}
"""#
}
