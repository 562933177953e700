#!/usr/bin/env python3
"""Proofreads a page in the web app of `koten-ocr serve` as a person does, in Debian's headless Chromium over the
DevTools protocol on a pipe (the `Browser` class of scripts/webapp_cdp.py, the drivers' shared client; standard
library only, nothing beyond the app's loopback address). Used by Tests/KotenOCRKitTests/Serve/WebAppProofreadingTests.

One job of two pages (VERTICAL: page 1, HORIZONTAL: page 2) is chosen through the page's file input; once both are
read (the viewer shows one page at a time: `KotenApp.showPage`), a second tab opens the app (the same job, the same revision). In the first tab, on page 2: a line clicked
and retyped through an input method (DevTools `Input.imeSetComposition`, an Enter sent while the composition is
open, then `Input.insertText`), Enter saving and moving on, Escape cancelling, Tab / Shift+Tab moving, a line
corrected, a line marked as not text (Delete), undone, marked again. The second tab, stale, saves the line the
first corrected (412: the other tab's text shown, its own kept in the field), then saves again. Page 1: a vertical
line clicked over the image and edited (screenshots in Japanese and English). A save offline (the field kept),
then online. Page 2 marked proofread (the state and the job's figures). A reload; page 2's ALTO (its link) and
the job's PDF (downloaded through its link); a line drawn on page 1's image (mouse). Prints one JSON report;
whatever goes wrong ends it with a one-line message on standard error and exit status 1. Every wait is bounded
and waits for a state.

Usage: webapp-proofread.py --url http://127.0.0.1:PORT/ --out DIR --vertical FILE --horizontal FILE [--timeout 240]
"""
import argparse, base64, json, os, shutil, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webapp_cdp import Browser, report_failure  # noqa: E402  (the drivers' shared DevTools client)


class Tab:
    def __init__(self, b, url, out, report):
        self.b, self.out, self.report = b, out, report
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.target = target
        self.s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "DOM", "Network"):
            b.send(f"{domain}.enable", session=self.s)
        b.send("Page.navigate", {"url": url}, session=self.s)
        b.wait_event("Page.loadEventFired", timeout=30, where=lambda p: True)
        self.count_patches()

    def count_patches(self):
        # Every PATCH the page sends is counted (the app calls the global fetch at each save).
        self.js("""(() => { if (window.__patched) return; window.__patched = true; window.__patches = 0; const f = window.fetch;
                   window.fetch = (u, o) => { if (o && o.method === 'PATCH') window.__patches++; return f(u, o); }; })()""")

    def js(self, expression, timeout=30):
        r = self.b.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session=self.s, timeout=timeout)
        if "exceptionDetails" in r:
            raise RuntimeError("script: " + json.dumps(r["exceptionDetails"].get("exception", {}).get("description", r["exceptionDetails"]))[:400])
        return r["result"].get("value")

    def until(self, expression, what, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            v = self.js(expression)
            if v: return v
            if self.js("!document.getElementById('error').hidden"):
                raise RuntimeError(f"{what}: the page shows an error: " + self.js("document.getElementById('error-text').textContent"))
            if time.monotonic() > deadline: raise TimeoutError(f"{what} (waited {timeout:.0f} s)")
            time.sleep(0.1)

    def show(self, n, timeout=120):
        """Shows page `n` of the tab's job (the viewer shows one page at a time) and waits until it is shown with its
        proofreading bar."""
        self.until("!!document.querySelector('.job[data-job]')", "the job shown", timeout)
        job = self.js("document.querySelector('.job[data-job]').dataset.job")
        self.js(f"window.KotenApp.showPage('{job}', {n}); true")
        self.until(f"!!document.querySelector('.page[data-page=\"{n}\"][data-loaded=true] .pr-bar')", f"page {n} shown with its proofreading", timeout)

    def key(self, name, code, keycode, text=None, shift=False):
        for kind in ("keyDown", "keyUp"):
            params = {"type": kind, "key": name, "code": code, "windowsVirtualKeyCode": keycode, "modifiers": 8 if shift else 0}
            if text and kind == "keyDown": params["text"] = text
            self.b.send("Input.dispatchKeyEvent", params, session=self.s)

    def enter(self): self.key("Enter", "Enter", 13, "\r")
    def escape(self): self.key("Escape", "Escape", 27)
    def tab(self, shift=False): self.key("Tab", "Tab", 9, shift=shift)
    def delete(self): self.key("Delete", "Delete", 46)

    def click_at(self, expression):
        """A real mouse click at the middle of the element `expression` names (scrolled into view first, and clicked once
        its box is the same on three reads in a row: the overlay's scale follows the sheet's size a frame late, through
        a ResizeObserver, when the page's layout has just changed, e.g. after the language switch)."""
        r = self.js(f"""(async () => {{ const el = {expression}; el.scrollIntoView({{block: 'center', inline: 'center'}});
          let last = '', same = 0, r = el.getBoundingClientRect();
          for (let i = 0; i < 200 && same < 2; i++) {{
            await new Promise(f => setTimeout(f, 20));
            r = el.getBoundingClientRect();
            const now = [r.left, r.top, r.width, r.height].join(' ');
            same = now === last ? same + 1 : 0; last = now;
          }}
          return {{x: r.left + r.width / 2, y: r.top + r.height / 2}}; }})()""")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.b.send("Input.dispatchMouseEvent", {"type": kind, "x": r["x"], "y": r["y"], "button": "left", "clickCount": 1}, session=self.s)

    def drag(self, expression):
        """A mouse drag from the top-left to the bottom-right corner of the element `expression` names."""
        r = self.js(f"(() => {{ const el = {expression}; el.scrollIntoView({{block: 'center', inline: 'center'}}); const r = el.getBoundingClientRect(); return {{l: r.left, t: r.top, r: r.right, b: r.bottom}}; }})()")
        steps = [("mouseMoved", r["l"] + 1, r["t"] + 1, "none"), ("mousePressed", r["l"] + 1, r["t"] + 1, "left"),
                 ("mouseMoved", (r["l"] + r["r"]) / 2, (r["t"] + r["b"]) / 2, "left"), ("mouseMoved", r["r"] - 1, r["b"] - 1, "left"),
                 ("mouseReleased", r["r"] - 1, r["b"] - 1, "left")]
        for kind, x, y, button in steps:
            p = {"type": kind, "x": x, "y": y, "button": button, "clickCount": 1}
            if button == "left" and kind == "mouseMoved": p["buttons"] = 1
            self.b.send("Input.dispatchMouseEvent", p, session=self.s)

    def shot(self, name):
        path = os.path.join(self.out, name + ".png")
        data = self.b.send("Page.captureScreenshot", {"format": "png"}, session=self.s)["data"]
        with open(path, "wb") as f: f.write(base64.b64decode(data))
        self.report["screenshots"].append(path)


PAGE = "document.querySelector('.page[data-page=\"{n}\"]')"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--vertical", required=True)
    ap.add_argument("--horizontal", required=True)
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--full-flag", help="the file whose presence makes the server's database full (KOTEN_OCR_TEST_CORPUS_FULL_WHILE)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    downloads = os.path.join(args.out, "downloads")
    os.makedirs(downloads, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="webapp-proofread-")
    report = {"screenshots": []}
    b = Browser(profile, 1400, 1000)
    a = None
    try:
        b.send("Browser.setDownloadBehavior", {"behavior": "allowAndName", "downloadPath": downloads, "eventsEnabled": True})
        a = Tab(b, args.url, args.out, report)
        root = b.send("DOM.getDocument", session=a.s)["root"]["nodeId"]
        node = b.send("DOM.querySelector", {"nodeId": root, "selector": "#file"}, session=a.s)["nodeId"]
        b.send("DOM.setFileInputFiles", {"files": [os.path.abspath(args.vertical), os.path.abspath(args.horizontal)], "nodeId": node}, session=a.s)
        a.show(1, args.timeout)
        a.show(2, args.timeout)
        report["job"] = a.js("document.querySelector('.job').dataset.job")
        # The second tab: the same job (the browser remembers it), the same revision.
        t2 = Tab(b, args.url, args.out, report)
        t2.show(2, 90)
        b.send("Target.activateTarget", {"targetId": a.target})

        P2 = PAGE.format(n=2)
        ids = a.js(f"[...{P2}.querySelectorAll('ol.lines > li[data-id]')].map(li => li.dataset.id)")
        texts = a.js(f"[...{P2}.querySelectorAll('ol.lines > li[data-id] .pr-text')].map(e => e.textContent)")
        report["ids"], report["before"] = ids, texts
        if len(ids) < 5: raise RuntimeError(f"page 2 has {len(ids)} lines: {texts}")
        li = lambda P, i: f"{P}.querySelector('ol.lines > li[data-id=\"{i}\"]')"
        editing = lambda P: f"(() => {{ const e = {P}.querySelector('li.pr-editing'); return e ? e.dataset.id : null; }})()"
        field = "document.activeElement.classList.contains('pr-field') ? document.activeElement.value : null"

        # 1. A line clicked in the list: editable in place, its image beside it, the field focused.
        a.click_at(li(P2, ids[0]))
        a.until(f"{editing(P2)} === '{ids[0]}' && document.activeElement.classList.contains('pr-field')", "the clicked line's field")
        report["opened"] = a.js(f"""(() => {{ const li = {li(P2, ids[0])}, c = li.querySelector('.pr-crop');
          return {{value: document.activeElement.value, crop: c ? [c.offsetWidth, c.offsetHeight] : null, image: c ? getComputedStyle(c).backgroundImage : ''}}; }})()""")
        # 2. Typed through an input method: an Enter while the composition is open saves nothing and moves nowhere.
        a.js("document.activeElement.select()")
        b.send("Input.imeSetComposition", {"text": "きそうし", "selectionStart": 4, "selectionEnd": 4}, session=a.s)
        a.enter()
        report["composing"] = {"patches": a.js("window.__patches"), "editing": a.js(editing(P2)), "value": a.js(field)}
        b.send("Input.insertText", {"text": "気送子"}, session=a.s)
        report["committed"] = {"patches": a.js("window.__patches"), "editing": a.js(editing(P2)), "value": a.js(field)}
        # 3. Enter saves and opens the next line.
        a.enter()
        a.until(f"{editing(P2)} === '{ids[1]}' && window.__patches === 1 && !!document.activeElement.classList.contains('pr-field')", "Enter saved and moved to the next line")
        report["afterEnter"] = {"patches": a.js("window.__patches"), "editing": a.js(editing(P2)),
                                "text": a.js(f"{li(P2, ids[0])}.querySelector('.pr-text').textContent"),
                                "corrected": a.js(f"{li(P2, ids[0])}.classList.contains('pr-corrected')")}
        # 4. Escape cancels: the text as it was, nothing sent.
        b.send("Input.insertText", {"text": "誤"}, session=a.s)
        typed = a.js(field)
        a.escape()
        a.until(f"{editing(P2)} === null", "Escape closed the field")
        report["escape"] = {"typed": typed, "text": a.js(f"{li(P2, ids[1])}.querySelector('.pr-text').textContent"),
                            "patches": a.js("window.__patches"), "focus": a.js("document.activeElement.dataset.id || null")}
        # 5. Enter on the focused line opens it; Tab and Shift+Tab move (nothing changed: nothing sent).
        a.enter()
        a.until(f"{editing(P2)} === '{ids[1]}'", "Enter on a line opened it")
        moves = []
        a.tab(); moves.append(a.until(editing(P2) + f" === '{ids[2]}' && '{ids[2]}'", "Tab moved on"))
        a.tab(shift=True); moves.append(a.until(editing(P2) + f" === '{ids[1]}' && '{ids[1]}'", "Shift+Tab moved back"))
        report["tabs"] = {"moves": moves, "patches": a.js("window.__patches")}
        # 6. Line 2 corrected in this tab.
        a.js("document.activeElement.select()")
        b.send("Input.insertText", {"text": "円筒形"}, session=a.s)
        a.enter()
        a.until(f"{editing(P2)} === '{ids[2]}' && window.__patches === 2", "line 2 saved")
        a.escape()
        a.until(f"{editing(P2)} === null", "Escape")
        # 7. Line 3 marked as not text (Delete on it), undone, marked again.
        a.js(f"{li(P2, ids[2])}.focus()")
        a.delete()
        a.until(f"{li(P2, ids[2])}.classList.contains('pr-deleted')", "Delete marked the line as not text")
        a.js(f"{P2}.querySelector('.pr-undo').focus()")
        a.enter()
        a.until(f"!{li(P2, ids[2])}.classList.contains('pr-deleted')", "undo restored the line")
        report["undone"] = a.js(f"{li(P2, ids[2])}.querySelector('.pr-text').textContent")
        a.js(f"{li(P2, ids[2])}.focus()")
        a.delete()
        a.until(f"{li(P2, ids[2])}.classList.contains('pr-deleted')", "Delete marked the line again")
        report["deleted"] = {"id": ids[2], "tag": a.js(f"{li(P2, ids[2])}.querySelector('.pr-tag-deleted')?.textContent || ''")}

        # 8. The second tab, stale: it saves line 2 and gets 412, the other tab's text shown, its own kept in the field.
        b.send("Target.activateTarget", {"targetId": t2.target})
        t2.click_at(li(P2, ids[1]))
        t2.until(f"{editing(P2)} === '{ids[1]}' && document.activeElement.classList.contains('pr-field')", "the second tab's field")
        t2.js("document.activeElement.select()")
        b.send("Input.insertText", {"text": "円筒形です"}, session=t2.s)
        t2.enter()
        t2.until(f"{P2}.querySelector('.pr-edit-msg[data-kind=stale]')", "the second tab told that the page changed")
        report["stale"] = t2.js(f"""(() => {{ const m = {P2}.querySelector('.pr-edit-msg');
          return {{message: m.textContent, theirs: m.dataset.theirs || null, editing: {editing(P2)}, value: {field},
                   line1: {li(P2, ids[0])}.querySelector('.pr-text').textContent,
                   line3deleted: {li(P2, ids[2])}.classList.contains('pr-deleted')}}; }})()""")
        draft_key = f"koten-drafts:{report['job']}:2"
        stored = f"JSON.parse(localStorage.getItem('{draft_key}') || 'null')"
        report["stale"]["stored"] = t2.js(stored)   # the edit refused with 412 kept in the browser too
        t2.shot("20-stale-tab-en")
        # Enter again: saved over it, having seen it.
        t2.enter()
        t2.until(f"{editing(P2)} === '{ids[2]}'", "the second tab saved on its second Enter")
        t2.escape()
        report["staleSaved"] = t2.js(f"{li(P2, ids[1])}.querySelector('.pr-text').textContent")
        report["stale"]["storedAfter"] = t2.js(stored)   # saved: no longer kept
        b.send("Target.activateTarget", {"targetId": a.target})

        # 9. Page 1: a vertical line clicked over the image, edited in vertical writing (screenshots ja, en).
        P1 = PAGE.format(n=1)
        a.show(1)
        vids = a.js(f"[...{P1}.querySelectorAll('ol.lines > li[data-id]')].map(li => li.dataset.id)")
        a.js("document.getElementById('lang').click()")
        a.click_at(f"{P1}.querySelector('.overlay .ol[data-id=\"{vids[0]}\"]')")
        a.until(f"{editing(P1)} === '{vids[0]}' && document.activeElement.classList.contains('pr-field')", "the vertical line's field")
        a.js("document.activeElement.select()")
        b.send("Input.insertText", {"text": "校正本文"}, session=a.s)
        a.js(f"{P1}.querySelector('li.pr-editing').scrollIntoView({{block: 'center'}})")
        report["vertical"] = a.js(f"""(() => {{ const f = document.activeElement, c = {P1}.querySelector('li.pr-editing .pr-crop');
          return {{writingMode: getComputedStyle(f).writingMode, crop: c ? [c.offsetWidth, c.offsetHeight] : null,
                   lang: document.documentElement.lang, label: f.getAttribute('aria-label'), value: f.value}}; }})()""")
        a.shot("10-edit-vertical-ja")
        a.js("document.getElementById('lang').click()")
        report["vertical"]["labelEn"] = a.js("document.activeElement.getAttribute('aria-label')")
        a.shot("11-edit-vertical-en")
        a.enter()
        a.until(f"{editing(P1)} !== '{vids[0]}' && {li(P1, vids[0])}.classList.contains('pr-corrected')", "the vertical line saved")
        if a.js(editing(P1)): a.escape()

        # 9b. A ruby clicked over the image: its line's editor, the ruby's own field focused; retyped through an input
        # method (an Enter during the composition saves nothing), Enter saves it (one PATCH) with the line as it was.
        ruby = a.js(f"(() => {{ const r = {P1}.querySelector('.overlay .ol.ruby[data-id]'); return r ? r.dataset.id : null; }})()")
        if not ruby: raise RuntimeError("no ruby outlined on page 1")
        a.click_at(f"{P1}.querySelector('.overlay .ol.ruby[data-id=\"{ruby}\"]')")
        a.until(f"document.activeElement.classList.contains('pr-ruby-field') && document.activeElement.dataset.id === '{ruby}'", "the ruby's field")
        patches = a.js("window.__patches")
        opened = {"id": ruby, "editing": a.js(editing(P1)), "value": a.js("document.activeElement.value"),
                  "label": a.js("document.activeElement.getAttribute('aria-label')"),
                  "fields": a.js(f"{P1}.querySelectorAll('li.pr-editing .pr-field, li.pr-editing .pr-ruby-field').length")}
        a.js(f"{P1}.querySelector('li.pr-editing').scrollIntoView({{block: 'center'}})")
        a.shot("14-edit-ruby-en")
        a.js("document.activeElement.select()")
        b.send("Input.imeSetComposition", {"text": "るび", "selectionStart": 2, "selectionEnd": 2}, session=a.s)
        a.enter()
        opened["composing"] = {"patches": a.js("window.__patches") - patches, "value": a.js("document.activeElement.value"),
                               "focused": a.js("document.activeElement.dataset.id || null")}
        b.send("Input.insertText", {"text": "ルビ"}, session=a.s)
        a.enter()
        a.until(f"window.__patches === {patches + 1} && {editing(P1)} !== '{opened['editing']}'", "the ruby saved and on to the next line")
        if a.js(editing(P1)): a.escape()
        opened["tag"] = a.js(f"{li(P1, opened['editing'])}.querySelector('.pr-tag-ruby')?.textContent || ''")
        report["ruby"] = opened

        # 10. Offline: the save refused, said so, the text kept in the field; online again, Enter saves it.
        a.show(2)
        a.click_at(li(P2, ids[4]))
        a.until(f"{editing(P2)} === '{ids[4]}' && document.activeElement.classList.contains('pr-field')", "line 5's field")
        b.send("Input.insertText", {"text": "（試）"}, session=a.s)
        typed = a.js(field)
        b.send("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session=a.s)
        a.enter()
        a.until(f"{P2}.querySelector('.pr-edit-msg[data-kind=offline]')", "the offline save said so")
        report["offline"] = {"typed": typed, "value": a.js(field), "editing": a.js(editing(P2)),
                             "message": a.js(f"{P2}.querySelector('.pr-edit-msg').textContent")}
        b.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session=a.s)
        a.enter()   # this tab is stale too (the second tab saved): line 5 is as it read it, so it is saved on the page as it is now
        a.until(f"{editing(P2)} !== '{ids[4]}' && {li(P2, ids[4])}.classList.contains('pr-corrected')", "line 5 saved once online")
        if a.js(editing(P2)): a.escape()
        report["offline"]["saved"] = a.js(f"{li(P2, ids[4])}.querySelector('.pr-text').textContent")
        report["offline"]["line2"] = a.js(f"{li(P2, ids[1])}.querySelector('.pr-text').textContent")

        # 10b. A failed save kept in the browser (localStorage): offered back after a reload and discarded; made again,
        # the tab closed, offered back in a new tab, restored (keyboard) and saved.
        offers = f"[...{P2}.querySelectorAll('.pr-draft')].map(d => ({{id: d.dataset.id, text: d.dataset.text, shown: d.textContent}}))"

        def fail_offline(tab, i, text):
            tab.click_at(li(P2, ids[i]))
            tab.until(f"{editing(P2)} === '{ids[i]}' && document.activeElement.classList.contains('pr-field')", f"line {i + 1}'s field")
            b.send("Input.insertText", {"text": text}, session=tab.s)
            b.send("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session=tab.s)
            tab.enter()
            tab.until(f"{P2}.querySelector('.pr-edit-msg[data-kind=offline]')", "the offline save said so")
            kept = tab.js(stored)
            b.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session=tab.s)
            return kept

        drafted = {"stored": fail_offline(a, 3, "（稿）")}

        def take_offer(tab, button, when):
            """Page 2 shown in `tab`, its kept edit of line 4 offered (`when`): what is offered, then `button` pressed."""
            tab.show(2, 90)
            tab.until(f"!!{P2}.querySelector('.pr-draft[data-id=\"{ids[3]}\"]')", f"the unsaved edit offered {when}")
            offered = tab.js(offers)
            tab.js(f"{P2}.querySelector('.pr-draft .pr-{button}').focus()")
            tab.enter()
            return offered

        b.send("Page.reload", session=a.s)
        b.wait_event("Page.loadEventFired", timeout=30)
        drafted["offered"] = take_offer(a, "discard", "after the reload")
        a.until(f"!{P2}.querySelector('.pr-draft')", "the unsaved edit discarded")
        drafted["discarded"] = {"stored": a.js(stored), "text": a.js(f"{li(P2, ids[3])}.querySelector('.pr-text').textContent"),
                                "focus": a.js("document.activeElement.dataset.id || null")}
        drafted["storedAgain"] = fail_offline(a, 3, "（稿）")
        b.send("Target.closeTarget", {"targetId": a.target})
        a = Tab(b, args.url, args.out, report)
        drafted["offeredAgain"] = take_offer(a, "restore", "in a new tab")
        a.until(f"{editing(P2)} === '{ids[3]}' && document.activeElement.classList.contains('pr-field')", "the unsaved edit restored in its field")
        drafted["restored"] = {"value": a.js(field), "offers": a.js(f"{P2}.querySelectorAll('.pr-draft').length"), "patches": a.js("window.__patches")}
        a.enter()
        a.until(f"{editing(P2)} !== '{ids[3]}' && {li(P2, ids[3])}.classList.contains('pr-corrected')", "the restored edit saved")
        if a.js(editing(P2)): a.escape()
        drafted["saved"] = {"text": a.js(f"{li(P2, ids[3])}.querySelector('.pr-text').textContent"), "stored": a.js(stored)}
        report["drafted"] = drafted

        # 10c. The server's disk full (507): said so, the edit kept in the field and in the browser, the page as it
        # was; saved once there is room; then undone (the page as before for what follows).
        if args.full_flag:
            big = "満" * 9000
            open(args.full_flag, "w").close()
            a.click_at(li(P2, ids[5]))
            a.until(f"{editing(P2)} === '{ids[5]}' && document.activeElement.classList.contains('pr-field')", "line 6's field")
            a.js("document.activeElement.select()")
            b.send("Input.insertText", {"text": big}, session=a.s)
            a.enter()
            a.until(f"{P2}.querySelector('.pr-edit-msg[data-kind=full]')", "the save refused for a full disk said so")
            server_line = f"fetch('v1/jobs/{report['job']}/pages/2?format=json', {{cache: 'no-store'}}).then(r => r.json()).then(p => p.lines.find(l => l.id === '{ids[5]}').text)"
            full = {"message": a.js(f"{P2}.querySelector('.pr-edit-msg').textContent"), "editing": a.js(editing(P2)),
                    "kept": a.js(f"document.activeElement.value === '{big}'"), "stored": a.js(f"({stored} || {{}})['{ids[5]}']?.text === '{big}'"),
                    "server": a.js(server_line)}
            os.remove(args.full_flag)
            a.enter()
            a.until(f"{editing(P2)} !== '{ids[5]}' && {li(P2, ids[5])}.classList.contains('pr-corrected')", "line 6 saved once there was room")
            if a.js(editing(P2)): a.escape()
            full["saved"] = a.js(f"{li(P2, ids[5])}.querySelector('.pr-text').textContent.length")
            full["storedAfter"] = a.js(stored)
            a.js(f"{P2}.querySelector('.pr-undo').focus()")
            a.enter()
            a.until(f"{li(P2, ids[5])}.querySelector('.pr-text').textContent.length < 9000", "line 6's long edit undone")
            full["undone"] = a.js(f"{li(P2, ids[5])}.querySelector('.pr-text').textContent")
            report["full"] = full

        # 11. Page 2 marked proofread (keyboard): its state and the job's figures.
        a.js(f"{P2}.querySelector('.pr-mark').focus()")
        a.enter()
        a.until(f"{P2}.querySelector('.result').dataset.proofState === 'proofread' && {P2}.querySelector('.pr-figures').dataset.pages === '1'", "page 2 proofread and the figures shown")
        report["proofread"] = a.js(f"""(() => {{ const f = {P2}.querySelector('.pr-figures'), s = {P2}.querySelector('.pr-state');
          return {{state: s.textContent, figures: f.textContent, pages: +f.dataset.pages, lines: +f.dataset.lines, cer: f.dataset.cer,
                   mark: {P2}.querySelector('.pr-mark').textContent}}; }})()""")
        a.js(f"{P2}.scrollIntoView()")
        a.shot("12-proofread-en")

        # 11b. The page's history (keyboard): every change, who, when, before, after; one line's; in Japanese.
        rows = f"""[...{P2}.querySelectorAll('.pr-history-row')].map(r => ({{line: r.dataset.line, change: r.dataset.change,
                   changeShown: r.querySelector('.pr-h-change').textContent, who: r.querySelector('.pr-h-who').textContent,
                   time: r.querySelector('.pr-h-time').textContent, before: r.querySelector('.pr-h-before').textContent,
                   after: r.querySelector('.pr-h-after').textContent, where: r.querySelector('.pr-h-line').textContent}}))"""
        title = f"{P2}.querySelector('.pr-history-title')?.textContent || ''"
        a.js(f"{P2}.querySelector('.pr-history-button').focus()")
        a.enter()
        a.until(f"{P2}.querySelectorAll('.pr-history-row').length > 0", "the page's history shown")
        history = {"title": a.js(title), "rows": a.js(rows), "pressed": a.js(f"{P2}.querySelector('.pr-history-button').getAttribute('aria-pressed')")}
        a.js(f"{P2}.querySelector('.pr-history-line[data-id=\"{ids[0]}\"]').focus()")
        a.enter()
        a.until(f"!!{P2}.querySelector('.pr-history-all')", "one line's history shown")
        history["line"] = {"title": a.js(title), "rows": a.js(rows), "focus": a.js("document.activeElement.className")}
        a.js("document.getElementById('lang').click()")
        history["ja"] = {"title": a.js(title), "rows": a.js(rows)}
        a.js(f"{P2}.querySelector('.pr-history').scrollIntoView()")
        a.shot("13-history-ja")
        a.js("document.getElementById('lang').click()")
        report["history"] = history

        # 12. A reload shows the edits.
        b.send("Page.reload", session=a.s)
        b.wait_event("Page.loadEventFired", timeout=30)
        a.show(1, 90)
        page1 = a.js(f"[...{P1}.querySelectorAll('ol.lines > li[data-id]')].map(li => li.querySelector('.pr-text').textContent)")
        a.show(2, 90)
        report["reloaded"] = a.js(f"""(() => ({{
          page2: [...{P2}.querySelectorAll('ol.lines > li[data-id]')].map(li => ({{id: li.dataset.id, text: li.querySelector('.pr-text').textContent,
                 corrected: li.classList.contains('pr-corrected'), deleted: li.classList.contains('pr-deleted')}})),
          state: {P2}.querySelector('.result').dataset.proofState, figures: {P2}.querySelector('.pr-figures').textContent }}))()""")
        report["reloaded"]["page1"] = page1
        a.js(f"{P2}.querySelector('.pr-show-model').click()")
        report["modelShown"] = a.js(f"getComputedStyle({li(P2, ids[0])}.querySelector('.pr-model')).display !== 'none' && {li(P2, ids[0])}.querySelector('.pr-model').textContent")

        # 13. Page 2's ALTO through its link; the job's PDF downloaded through its link.
        report["alto"] = a.js(f"fetch({P2}.querySelector('.page-downloads a[data-format=alto]').href).then(r => r.text())")
        a.js("document.querySelector('.job-downloads a[data-format=pdf]').click()")
        begun = b.wait_event("Browser.downloadWillBegin", timeout=30)
        done = b.wait_event("Browser.downloadProgress", timeout=120, where=lambda p: p.get("guid") == begun["guid"] and p.get("state") in ("completed", "canceled"))
        pdf = os.path.join(downloads, begun["guid"])
        if done.get("state") != "completed" or not os.path.exists(pdf): raise RuntimeError("the PDF download did not complete")
        report["pdf"] = os.path.join(downloads, "job.pdf")
        os.replace(pdf, report["pdf"])

        # 14. A line drawn on page 1's image (a mouse drag over its second column): read by the engine and added.
        a.show(1)
        a.js(f"{P1}.querySelector('.pr-draw').click()")
        a.until(f"!!{P1}.querySelector('.pr-box')", "the drawing box")
        target = vids[1] if len(vids) > 1 else vids[0]
        a.drag(f"{P1}.querySelector('.overlay .ol[data-id=\"{target}\"]')")
        a.until(f"!!{P1}.querySelector('ol.lines > li.pr-added, ol.lines > li.pr-editing[data-id^=a]')", "the drawn line added", 120)
        report["drawn"] = a.js(f"""(() => {{ const li = {P1}.querySelector('ol.lines > li[data-id^=a]');
          return {{id: li.dataset.id, editing: li.classList.contains('pr-editing'), message: {P1}.querySelector('.pr-msg').textContent,
                   outline: !!{P1}.querySelector('.overlay .ol[data-id=\"' + li.dataset.id + '\"]'),
                   lines: {P1}.querySelectorAll('ol.lines > li[data-id]').length}}; }})()""")
        try: b.send("Browser.close", timeout=5)
        except Exception: pass
    except Exception as e:
        return report_failure(b, "webapp-proofread", e, report, lambda name: a.shot(name) if a else None)
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
