extension WebApp {
    /// Search, a part of the app (`parts`): a search box over every book the server has read (`GET /v1/search`),
    /// the hits listed by book and page, each a button that shows its page with the hit's lines marked over the
    /// image (and in the list), and the next and previous hit.
    static let search = #"""
(() => {
"use strict";
const K = window.KotenApp;
if (!K) return;
Object.assign(K.strings.en, {
  searchTitle: "Search the books read", searchLabel: "Text to find (旧字体 and 新字体 alike)", searchButton: "Search",
  searching: "Searching…", hitCount: "{0} found", hitMore: "{0} found (more: search for a longer text)", noHits: "Not found.",
  hitAt: "Hit {0} of {1}", prevHit: "Previous hit", nextHit: "Next hit", hitPage: "Page {0}",
});
Object.assign(K.strings.ja, {
  searchTitle: "読み取った本を検索", searchLabel: "探す文字（旧字体・新字体どちらでも）", searchButton: "検索",
  searching: "検索中…", hitCount: "{0}件", hitMore: "{0}件（続きがあります：もっと長い文字で探してください）", noHits: "見つかりませんでした。",
  hitAt: "{1}件中{0}件目", prevHit: "前の一致", nextHit: "次の一致", hitPage: "{0}ページ目",
});
const {t, h, localised} = K;
const LIMIT = 200;
let hits = [], at = -1;

const title = localised(h("h2", {id: "search-title"}), el => { el.textContent = t("searchTitle"); });
const field = h("input", {id: "q", type: "search", lang: "ja", required: true, maxlength: 200, autocomplete: "off", spellcheck: "false"});
const label = localised(h("label", {for: "q"}), el => { el.textContent = t("searchLabel"); });
const go = localised(h("button", {type: "submit"}), el => { el.textContent = t("searchButton"); });
const form = h("form", {id: "search-form", role: "search"}, label, h("div", {class: "iiif-row"}, field, go));
const prev = localised(h("button", {type: "button", class: "prev-hit", disabled: true}, "↑"), el => el.setAttribute("aria-label", t("prevHit")));
const next = localised(h("button", {type: "button", class: "next-hit", disabled: true}, "↓"), el => el.setAttribute("aria-label", t("nextHit")));
const where = h("span", {class: "hit-at", role: "status"});
const summary = h("p", {class: "hit-summary", role: "status"});
const list = h("ol", {class: "hits"});
const section = h("section", {id: "search", "aria-labelledby": "search-title"}, title, form, h("div", {class: "hitnav"}, prev, where, next), summary, list);
const upload = document.getElementById("upload");
if (upload) upload.after(section); else document.querySelector("main")?.prepend(section);

const titles = new Map();
/// A book's title: its view's, else its record's (the manifest's label or its first page's name).
async function bookTitle(id) {
  const shown = K.jobs.get(id);
  if (shown) return K.jobTitle(shown);
  if (!titles.has(id)) {
    titles.set(id, K.api(`v1/jobs/${id}`).then(data => K.inLanguage(data.labels, data.label)
      || String(data.pages?.[0]?.name || id).replace(/ p\d+$/, "")).catch(() => id));
  }
  return titles.get(id);
}

/// A snippet with its highlight marked.
function snippet(hit) {
  const chars = [...String(hit.snippet || hit.text || "")];
  const start = hit.highlight?.start ?? 0, length = hit.highlight?.length ?? 0;
  return h("span", {class: "snippet", lang: "ja"}, chars.slice(0, start).join(""), h("mark", {}, chars.slice(start, start + length).join("")),
           chars.slice(start + length).join(""));
}

async function find(text) {
  hits = []; at = -1;
  list.replaceChildren();
  localised(summary, el => { el.textContent = t("searching"); });
  let answer;
  try {
    answer = await K.api(`v1/search?q=${encodeURIComponent(text)}&limit=${LIMIT}`);
  } catch (e) {
    summary.textContent = "";
    K.showError(e);
    return;
  }
  K.hideError();
  hits = Array.isArray(answer.hits) ? answer.hits : [];
  localised(summary, el => { el.textContent = !hits.length ? t("noHits") : answer.hasMore ? t("hitMore", hits.length) : t("hitCount", hits.length); });
  // By book, then page, in the server's order.
  let book = null, page = null;
  for (const [i, hit] of hits.entries()) {
    if (!book || book.dataset.job !== hit.job) {
      const heading = h("h3", {class: "hit-book"}, hit.job);
      bookTitle(hit.job).then(name => { heading.textContent = name; });
      page = null;
      book = h("li", {class: "book", "data-job": hit.job}, heading, h("ol", {class: "hit-pages"}));
      list.append(book);
    }
    if (!page || Number(page.dataset.page) !== hit.page) {
      const heading = localised(h("span", {class: "hit-page-title"}), el => {
        const job = K.jobs.get(hit.job), label = job ? K.pageLabel(job.data?.pages?.[hit.page - 1]) : null;
        el.textContent = t("hitPage", hit.page) + (label ? ` · ${label}` : "");
      });
      page = h("li", {class: "hit-page", "data-page": hit.page}, heading, h("ol", {class: "page-hits"}));
      book.querySelector(".hit-pages").append(page);
    }
    const button = h("button", {type: "button", class: "hit", "data-index": i, "data-job": hit.job, "data-page": hit.page, "data-line": hit.line}, snippet(hit));
    button.addEventListener("click", () => select(i));
    page.querySelector(".page-hits").append(h("li", {}, button));
  }
  prev.disabled = next.disabled = hits.length === 0;
  where.textContent = "";
}

/// Shows hit `i`: its page, its lines marked over the image and in the list, scrolled into view.
async function select(i) {
  if (!hits.length) return;
  at = (i + hits.length) % hits.length;
  const hit = hits[at];
  for (const b of list.querySelectorAll(".hit[aria-current]")) b.removeAttribute("aria-current");
  const button = list.querySelector(`.hit[data-index="${at}"]`);
  if (button) button.setAttribute("aria-current", "true");
  localised(where, el => { el.textContent = t("hitAt", at + 1, hits.length); });
  const detail = await K.showPage(hit.job, hit.page);
  if (!detail || hits[at] !== hit) return;
  mark(detail.root, hit);
}

function mark(root, hit) {
  for (const el of document.querySelectorAll(".search-hit")) el.classList.remove("search-hit");
  for (const el of document.querySelectorAll(".hitbox")) el.remove();
  const ids = new Set([hit.line, ...(Array.isArray(hit.lines) ? hit.lines : [])]);
  for (const el of root.querySelectorAll("[data-id]")) if (ids.has(el.dataset.id)) el.classList.add("search-hit");
  const overlay = root.querySelector(".overlay"), box = hit.box;
  if (overlay && box) {
    const el = h("div", {class: "hitbox", "data-line": hit.line, "aria-hidden": "true"});
    el.style.cssText = `left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px`;
    overlay.append(el);
    el.scrollIntoView({block: "nearest", inline: "nearest"});
  }
  root.querySelector(".side li.search-hit")?.scrollIntoView({block: "nearest", inline: "nearest"});
}

form.addEventListener("submit", e => { e.preventDefault(); const text = field.value.trim(); if (text) find(text); });
prev.addEventListener("click", () => select(at - 1));
next.addEventListener("click", () => select(at + 1));
// A page shown again (or by other means) keeps the current hit marked.
document.addEventListener("koten:page", e => {
  const hit = hits[at], d = e.detail;
  if (hit && d && d.job === hit.job && d.page === hit.page) mark(d.root, hit);
});
})();
"""#

    /// The search's style.
    static let searchCSS = #"""
#search{margin:1rem 0}
#search-form{display:flex;flex-direction:column;gap:.3rem}
#search-form label{font-weight:600}
#q{flex:1 1 24rem;font:inherit;padding:.35rem .5rem;border:1px solid #888;border-radius:.3rem}
.hitnav{display:flex;align-items:center;gap:.5rem;margin:.4rem 0}
.hit-summary{margin:.2rem 0;color:var(--muted)}
.hits{list-style:none;margin:0;padding:0;max-height:16rem;overflow:auto;background:var(--paper);border:1px solid var(--line);border-radius:.4rem}
.hits:empty{display:none}
.hits .book{padding:.3rem .6rem}
.hit-book{margin:.2rem 0;font-size:1rem}
.hit-pages,.page-hits{list-style:none;margin:0;padding:0 0 0 1rem}
.hit{display:block;width:100%;text-align:left;border:0;padding:.1rem .3rem;background:none}
.hit[aria-current]{background:#fde6d8}
.hit mark,.snippet mark{background:#ffd54f}
.overlay .ol.search-hit{outline:calc(3px * var(--u)) solid var(--vermilion)}
.lines li.search-hit{background:#ffd54f}
.hitbox{position:absolute;border:calc(3px * var(--u)) solid var(--vermilion);background:rgba(255,213,79,.35);pointer-events:none}
"""#
}
