#!/usr/bin/env python3
"""Drives the web app's viewer and search (docs/serve.md, "The web app") in Debian's headless Chromium, as a person
uses it with the keyboard, against a real `koten-ocr serve` on 127.0.0.1. Used by
Tests/KotenOCRKitTests/Serve/WebAppViewerTests.swift. The DevTools client is scripts/webapp_cdp.py's `Browser`.

It chooses JOB's files (one job) through the drop zone (Tab, Enter), waits until every page is read, reloads and
counts the requests the page makes as it opens (the page list's thumbnails, the page images and page JSONs, from
DevTools' Network events), jumps to page --jump with the page field, zooms with + + − 0 on the page image, shows
page --vertical (its line list's writing mode, the switch to horizontal and back), copies the list's text with
Ctrl+C and with the "copy the page's text" and "copy the book's text" buttons (the clipboard read back), searches
a character of page --query-page's longest line (the hits, the first's line marked over the image, next and previous hit), shows the Japanese message of a
refused file (--refused), removes the job (undone first, then confirmed) with a second tab open on the app (which
must drop the job too), and keeps screenshots (ja and en). Prints one JSON object on standard output; whatever goes
wrong ends it with a one-line message on standard error and exit status 1. Every wait is bounded.

Usage: webapp-viewer.py --url http://127.0.0.1:PORT/ --out DIR --jump N --vertical N --query-page N --refused FILE JOB
(JOB: files joined by commas, chosen at once as one job)
"""
import argparse, base64, json, os, shutil, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webapp_cdp import Browser, report_failure  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--jump", type=int, required=True)
    ap.add_argument("--vertical", type=int, required=True)
    ap.add_argument("--query-page", type=int, required=True, help="the page whose longest line gives the text searched for (one of its characters)")
    ap.add_argument("--refused", required=True)
    ap.add_argument("job")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="webapp-viewer-chromium-")
    report = {"screenshots": []}
    b = Browser(profile, 1400, 1000)
    tabs = {}
    try:
        def open_tab(name):
            target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "DOM", "Network"):
                b.send(f"{domain}.enable", session=s)
            tabs[name] = s
            return s

        def js(expression, tab="one", timeout=30):
            r = b.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True, "userGesture": True},
                       session=tabs[tab], timeout=timeout)
            if "exceptionDetails" in r:
                raise RuntimeError("script: " + json.dumps(r["exceptionDetails"].get("exception", {}).get("description", r["exceptionDetails"]))[:400])
            return r["result"].get("value")

        def until(expression, what, tab="one", timeout=60):
            deadline = time.monotonic() + timeout
            while True:
                value = js(expression, tab)
                if value: return value
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{what} (within {timeout:.0f} s)")
                time.sleep(0.15)

        def shot(name, tab="one"):
            path = os.path.join(args.out, name + ".png")
            data = b.send("Page.captureScreenshot", {"format": "png"}, session=tabs[tab])["data"]
            with open(path, "wb") as f: f.write(base64.b64decode(data))
            report["screenshots"].append(path)

        def key(name, code, keycode, text=None, modifiers=0, commands=None, tab="one"):
            for kind in ("keyDown", "keyUp"):
                params = {"type": kind, "key": name, "code": code, "windowsVirtualKeyCode": keycode, "modifiers": modifiers}
                if text is not None and kind == "keyDown": params["text"] = text
                if commands and kind == "keyDown": params["commands"] = commands
                b.send("Input.dispatchKeyEvent", params, session=tabs[tab])

        def typed(text, tab="one"):
            b.send("Input.insertText", {"text": text}, session=tabs[tab])

        def requests(tab="one"):
            """The page's requests since the last look (URLs), from the Network events of the tab."""
            b.drain(0.3)
            found = [m["params"]["request"]["url"] for m in b.network
                     if m.get("method") == "Network.requestWillBeSent" and m.get("sessionId") == tabs[tab]]
            b.network.clear()
            return found

        def load(tab="one"):
            b.send("Page.navigate", {"url": args.url}, session=tabs[tab])
            until("document.readyState === 'complete' && !!document.getElementById('drop') && !!window.KotenApp", "the app to load", tab)

        s = open_tab("one")
        b.send("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"],
                                             "origin": args.url.split("/", 3)[0] + "//" + args.url.split("/", 3)[2]})
        b.send("Page.setInterceptFileChooserDialog", {"enabled": True}, session=s)
        b.send("Page.bringToFront", session=s)   # the clipboard is read by the page that has the focus
        load()
        js("localStorage.setItem('koten-ocr-lang', 'en'); true")
        # The job: the drop zone reached with Tab, the chooser opened with Enter, the files given to it.
        for _ in range(8):
            key("Tab", "Tab", 9)
            if js("document.activeElement.id") == "drop": break
        key("Enter", "Enter", 13, "\r")
        chooser = b.wait_event("Page.fileChooserOpened", timeout=30)
        b.send("DOM.setFileInputFiles", {"files": [os.path.abspath(f) for f in args.job.split(",")], "backendNodeId": chooser["backendNodeId"]}, session=s)
        until("!!document.querySelector('.job[data-job]')", "the job to be posted")
        job = js("document.querySelector('.job[data-job]').dataset.job")
        report["job"] = job
        until("(() => { const j = document.querySelector('.job'); return j.dataset.state === 'done' && j.querySelectorAll('.tp').length > 0 "
              "&& [...j.querySelectorAll('.tp')].every(p => p.dataset.state === 'done' || p.dataset.state === 'failed'); })()",
              "every page read", timeout=args.timeout)
        report["pages"] = js("document.querySelectorAll('.job .tp').length")

        # Opening: a reload shows the job again; only what is in view is asked for.
        requests()
        load()
        until("(() => { const p = document.querySelector('.job .page[data-loaded=true]'); const i = p && p.querySelector('.sheet img');"
              " return i && i.complete && i.naturalWidth > 0; })()", "page 1 shown after the reload")
        until("[...document.querySelectorAll('.job .tp')].filter(t => t._visible).every(t => { const i = t.querySelector('img');"
              " return i.complete && i.naturalWidth > 0; })", "the thumbnails in view to load")
        asked = requests()
        report["opened"] = {
            "thumbnails": sorted(int(u.split("/pages/")[1].split("/")[0]) for u in asked if u.endswith("/thumbnail")),
            "images": len([u for u in asked if u.endswith("/image")]),
            "pageJSON": len([u for u in asked if "/pages/" in u and "format=json" in u]),
            "visible": js("[...document.querySelectorAll('.job .tp')].filter(t => { const l = t.closest('.pagelist').getBoundingClientRect(),"
                          " r = t.getBoundingClientRect(); return r.bottom > l.top && r.top < l.bottom; }).map(t => +t.dataset.page)"),
            "shown": js("[...document.querySelectorAll('.job .page')].map(p => +p.dataset.page)"),
            "title": js("document.querySelector('.job h3').textContent"),
        }
        shot("01-opened-en")

        # Jump to page N: the page field, typed, Enter.
        js("(() => { const f = document.querySelector('.job .jump'); f.focus(); f.select(); })()")
        typed(str(args.jump))
        key("Enter", "Enter", 13, "\r")
        until(f"!!document.querySelector('.job .page[data-page=\"{args.jump}\"][data-loaded=true]')", f"page {args.jump} shown")
        asked = requests()
        report["jumped"] = {
            "shown": js("[...document.querySelectorAll('.job .page')].map(p => +p.dataset.page)"),
            "current": js("+document.querySelector('.job .tp[aria-current=page]').dataset.page"),
            "currentInView": js("(() => { const t = document.querySelector('.job .tp[aria-current=page]'), l = t.closest('.pagelist').getBoundingClientRect(),"
                                " r = t.getBoundingClientRect(); return r.top >= l.top - 1 && r.bottom <= l.bottom + 1; })()"),
            "images": [int(u.split("/pages/")[1].split("/")[0]) for u in asked if u.endswith("/image")],
            "heading": js("document.querySelector('.job .page h4').textContent"),
        }

        # The page list with the keyboard: one stop in the focus order (the current page's item), the arrows move
        # within it, Enter shows the page.
        report["list"] = {"stops": js("document.querySelectorAll('.job .thumb[tabindex=\"0\"]').length")}
        js("document.querySelector('.job .tp[aria-current=page] .thumb').focus()")
        key("ArrowDown", "ArrowDown", 40)
        key("ArrowDown", "ArrowDown", 40)
        report["list"]["focused"] = js("+document.activeElement.closest('.tp').dataset.page")
        key("Enter", "Enter", 13, "\r")
        until(f"!!document.querySelector('.job .page[data-page=\"{args.jump + 2}\"][data-loaded=true]')", f"page {args.jump + 2} shown from the list")
        report["list"]["shown"] = js("+document.querySelector('.job .page').dataset.page")

        # Zoom with the keyboard on the page image: + + − 0.
        js("document.querySelector('.job .page .stage').focus()")
        width = "document.querySelector('.job .page .sheet').getBoundingClientRect().width"
        zoom = "+document.querySelector('.job .page .result').dataset.zoom"
        steps = [{"key": "start", "zoom": js(zoom), "width": js(width)}]
        for name, code, kc in (("+", "Equal", 187), ("+", "Equal", 187), ("-", "Minus", 189), ("0", "Digit0", 48)):
            key(name, code, kc, name, modifiers=8 if name == "+" else 0)
            time.sleep(0.05)
            steps.append({"key": name, "zoom": js(zoom), "width": js(width),
                          "scrollable": js("(() => { const s = document.querySelector('.job .page .stage'); return s.scrollWidth > s.clientWidth + 1; })()")})
            if name == "+" and len(steps) == 3: shot("02-zoomed-en")
        report["zoom"] = steps

        # Copy from the list with Ctrl+C: the text only.
        js("(() => { const l = document.querySelector('.job .page ol.lines'); const r = document.createRange(); r.selectNodeContents(l);"
           " getSelection().removeAllRanges(); getSelection().addRange(r); })()")
        key("c", "KeyC", 67, None, modifiers=2, commands=["copy"])
        report["copied"] = {"selection": js("navigator.clipboard.readText()"),
                            "listed": js("[...document.querySelectorAll('.job .page ol.lines:not(.weak) > li')].map(li => li.textContent)")}
        js("getSelection().removeAllRanges()")
        js("document.querySelector('.job .page .copy-page').focus()")
        key("Enter", "Enter", 13, "\r")
        until("document.querySelector('.job .page .copied').textContent !== ''", "the page's text copied")
        report["copied"]["page"] = js("navigator.clipboard.readText()")
        js("document.querySelector('.job .page .copy-book').focus()")
        key("Enter", "Enter", 13, "\r")
        until("document.querySelector('.job .page .copy-book ~ .copied').textContent !== '' && document.querySelector('.job .page .copied').textContent.length > 0", "the book's text copied")
        time.sleep(0.1)
        until("navigator.clipboard.readText().then(t => t !== " + json.dumps(report["copied"]["page"]) + ")", "the clipboard to hold the book's text")
        report["copied"]["book"] = js("navigator.clipboard.readText()")
        report["copied"]["server"] = js(f"fetch('v1/jobs/{job}/result?format=txt').then(r => r.text())")   # the whole text, as the API gives it

        # The loupe: the line pointed at in the list, enlarged.
        js("document.querySelector('.job .page ol.lines li').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))")
        report["loupe"] = js("(() => { const l = document.querySelector('.job .page .loupe'); return l && !l.hidden ? {line: +l.dataset.line,"
                             " scale: +l.dataset.scale, width: l.getBoundingClientRect().width} : null; })()")

        # A vertical page: its list written vertically; the switch (keyboard) to horizontal and back.
        js("(() => { const f = document.querySelector('.job .jump'); f.focus(); f.select(); })()")
        typed(str(args.vertical))
        key("Enter", "Enter", 13, "\r")
        until(f"!!document.querySelector('.job .page[data-page=\"{args.vertical}\"][data-loaded=true]')", f"page {args.vertical} shown")
        mode = "getComputedStyle(document.querySelector('.job .page ol.lines')).writingMode"
        writing = {"initial": js(mode)}
        shot("03-vertical-en")
        js("document.querySelector('.job .page button.writing').focus()")
        key("Enter", "Enter", 13, "\r")
        writing["switched"] = js(mode)
        key("Enter", "Enter", 13, "\r")
        writing["back"] = js(mode)
        writing["pressed"] = js("document.querySelector('.job .page button.writing').getAttribute('aria-pressed')")
        report["writing"] = writing

        # Search: typed into the search field, Enter; the first hit chosen with the keyboard; next, previous.
        # The text searched for: the character of page --query-page's longest line found the fewest times (but at
        # least twice) in the book's whole text, so that there are hits to go next and back between.
        query = js(f"""fetch('v1/jobs/{job}/pages/{args.query_page}?format=json').then(r => r.json()).then(p => {{
          const line = p.lines.filter(l => !l.kind && !l.lowConfidence).sort((a, b) => b.text.length - a.text.length)[0];
          const whole = {json.dumps(report["copied"]["server"])};
          const counts = [...new Set([...line.text].filter(c => /[\\p{{L}}\\p{{N}}]/u.test(c)))].map(c => [c, whole.split(c).length - 1]);
          const fit = counts.filter(([, n]) => n >= 2).sort((a, b) => a[1] - b[1])[0] || counts[0];
          return fit[0]; }})""")
        report["query"] = query
        js("document.getElementById('q').focus()")
        typed(query)
        key("Enter", "Enter", 13, "\r")
        until("document.querySelectorAll('#search .hit').length > 0 || /Not found/.test(document.querySelector('.hit-summary').textContent)", "the search's answer")
        report["hits"] = js("[...document.querySelectorAll('#search .hit')].map(h => ({job: h.dataset.job, page: +h.dataset.page, line: h.dataset.line,"
                            " text: h.textContent, mark: h.querySelector('mark').textContent,"
                            " book: h.closest('.book').querySelector('h3').textContent}))")
        report["apiHits"] = js(f"fetch('v1/search?q=' + encodeURIComponent({json.dumps(query)}) + '&limit=200').then(r => r.json())"
                               ".then(a => a.hits.map(h => `${h.page}/${h.line}`))")
        shown = []

        def marked():
            return js("""(() => { const p = document.querySelector('.job .page[data-loaded=true]'); if (!p) return null;
              const hit = p.querySelector('.overlay .ol.search-hit'), box = p.querySelector('.hitbox');
              const b = box && box.getBoundingClientRect(), l = hit && hit.getBoundingClientRect();
              return {page: +p.dataset.page, line: hit ? hit.dataset.id : null, listed: [...p.querySelectorAll('.side li.search-hit')].map(li => li.dataset.id),
                      box: b && {left: b.left, top: b.top, right: b.right, bottom: b.bottom}, lineBox: l && {left: l.left, top: l.top, right: l.right, bottom: l.bottom},
                      at: document.querySelector('.hit-at').textContent}; })()""")

        def await_hit(i):
            hit = report["hits"][i]
            until(f"(() => {{ const p = document.querySelector('.job .page[data-loaded=true]'); return p && +p.dataset.page === {hit['page']}"
                  f" && !!p.querySelector('.overlay .ol.search-hit[data-id=\"{hit['line']}\"]'); }})()", f"hit {i + 1} marked on page {hit['page']}")
            shown.append(marked())

        if report["hits"]:
            js("document.querySelector('#search .hit').focus()")
            key("Enter", "Enter", 13, "\r")
            await_hit(0)
            shot("04-hit-en")
            if len(report["hits"]) > 1:
                js("document.querySelector('#search .next-hit').focus()")
                key("Enter", "Enter", 13, "\r")
                await_hit(1)
                js("document.querySelector('#search .prev-hit').focus()")
                key("Enter", "Enter", 13, "\r")
                await_hit(0)
        report["hitShown"] = shown

        # Japanese: the page switched; a refused file's error in Japanese.
        js("document.getElementById('lang').click()")
        b.send("Page.setInterceptFileChooserDialog", {"enabled": False}, session=s)
        root = b.send("DOM.getDocument", session=s)["root"]["nodeId"]
        node = b.send("DOM.querySelector", {"nodeId": root, "selector": "#file"}, session=s)["nodeId"]
        b.send("DOM.setFileInputFiles", {"files": [os.path.abspath(args.refused)], "nodeId": node}, session=s)
        until("!document.getElementById('error').hidden", "the refused file's error")
        report["errorJa"] = js("document.getElementById('error-text').textContent")
        report["messages"] = js("(() => { const s = KotenApp.strings; const codes = o => Object.keys(o).filter(k => k.startsWith('error_') && k !== 'error_unknown')"
                                ".map(k => k.slice(6)).sort(); return {ja: codes(s.ja), en: codes(s.en),"
                                " same: codes(s.ja).filter(c => s.ja['error_' + c] === s.en['error_' + c])}; })()")
        report["modeJa"] = js("document.querySelector('#mode .mode-name').textContent")
        report["modeHint"] = js("(() => { const h = document.querySelector('#mode .mode-hint'); return h.hidden ? null : h.textContent; })()")
        report["titleJa"] = js("document.querySelector('.job h3').textContent")
        js("window.scrollTo(0, 0)")
        shot("05-error-ja")
        js("document.getElementById('error-close').click()")
        js("document.querySelector('.job .page').scrollIntoView({block: 'start'})")
        shot("06-page-ja")

        # Removal with a second tab open: undone first, then confirmed; the second tab drops the job too.
        open_tab("two")
        load("two")
        until(f"!!document.querySelector('#job-{job} .page[data-loaded=true]')", "the job shown in the second tab", "two")
        b.send("Page.bringToFront", session=tabs["one"])   # the first tab in front again (a tab behind is not painted: no screenshot)
        js(f"document.querySelector('#job-{job} button.remove').focus()")
        key("Enter", "Enter", 13, "\r")
        until("!!document.querySelector('.undo')", "the undo offer")
        removal = {"offered": js("document.querySelector('.undo').textContent"), "hiddenMeanwhile": js(f"document.getElementById('job-{job}').hidden"),
                   "focused": js("document.activeElement.className")}
        shot("07-undo-ja")
        key("Enter", "Enter", 13, "\r")   # the focus is on Undo
        until(f"!document.querySelector('.undo') && !document.getElementById('job-{job}').hidden", "the job back after Undo")
        removal["afterUndo"] = js(f"fetch('v1/jobs/{job}').then(r => r.status)")
        removal["secondTabAfterUndo"] = js(f"!!document.getElementById('job-{job}')", "two")
        js(f"document.querySelector('#job-{job} button.remove').focus()")
        key("Enter", "Enter", 13, "\r")
        until("!!document.querySelector('.undo .confirm')", "the undo offer again")
        js("document.querySelector('.undo .confirm').focus()")
        key("Enter", "Enter", 13, "\r")
        until(f"!document.getElementById('job-{job}')", "the job gone from the page")
        until(f"fetch('v1/jobs/{job}').then(r => r.status === 404)", "the job gone from the server")
        removal["server"] = 404
        until(f"!document.getElementById('job-{job}')", "the job gone from the second tab", "two")
        removal["secondTab"] = "gone"
        report["removal"] = removal
        try: b.send("Browser.close", timeout=5)
        except Exception: pass
    except Exception as e:
        return report_failure(b, "webapp-viewer", e, report, lambda name: shot(name), keep_log=args.out)   # shot: not yet made if the tab failed
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
