#!/usr/bin/env python3
"""Drives the web app of `koten-ocr serve` in Debian's headless Chromium over the DevTools protocol (CDP) on a
pipe (`--remote-debugging-pipe`: JSON messages ended by NUL on file descriptors 3 and 4; standard library only,
no port, no network beyond the app's own loopback address). Used by Tests/KotenOCRKitTests/Serve/WebAppBrowserTests.

It opens the app, reaches the drop zone with Tab and opens the file chooser with Enter (then Space), gives the chooser (the
page's real <input type=file>) each job's files, waits until every page is read, shows each page in turn (the page
field, typed, Enter: a job shows one page at a time), reads where each
line's text is laid out over the page image, asks every download link, downloads each job's PDF through the
page's link, shows the error of a file the server refuses, removes a job, reloads (the other job shown again), and keeps
screenshots (empty page in en and ja, progress, results in ja and en). Prints one JSON object on standard output;
whatever goes wrong ends it with a one-line message on standard error and exit status 1. Every wait is bounded.

Usage: webapp-browser.py --url http://127.0.0.1:PORT/ --out DIR [--timeout 90] [--refused FILE] [--remove TITLE]
                         [--manifest URL]... [--bad-manifest URL] JOB...
(JOB: a file, or several joined by commas, chosen at once as one job; --manifest: a IIIF book typed into the page's
manifest field, one job each)
"""
import argparse, base64, json, os, shutil, sys, tempfile, time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webapp_cdp import Browser, report_failure  # noqa: E402  (the drivers' shared DevTools client)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=float, default=90)
    ap.add_argument("--window", default="1400,1000", help="the window's width,height in CSS pixels")
    ap.add_argument("--remove", help="the title (file names) of the job to remove at the end; the newest when not given")
    ap.add_argument("--refused", help="a file the server refuses: chosen after the job, the page must show the API's error")
    ap.add_argument("--manifest", action="append", default=[],
                    help="a IIIF manifest's URL typed into the page's field (Enter): one job each, after the files' jobs")
    ap.add_argument("--bad-manifest", help="a manifest URL the server refuses: typed after the jobs, the page must show the API's error")
    ap.add_argument("--keep", action="store_true", help="remove no job before the reload (the jobs stay for the caller)")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if not args.files and not args.manifest: ap.error("give at least one JOB or --manifest")
    if args.keep and args.remove: ap.error("--keep removes no job: --remove cannot go with it")
    os.makedirs(args.out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="webapp-chromium-")
    downloads = os.path.join(args.out, "downloads")
    os.makedirs(downloads, exist_ok=True)
    report = {"screenshots": [], "focusOrder": []}
    width, height = (int(v) for v in args.window.split(","))
    b = Browser(profile, width, height)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.send("Browser.setDownloadBehavior", {"behavior": "allowAndName", "downloadPath": downloads, "eventsEnabled": True})
        for domain in ("Page", "Runtime", "DOM", "Network"):
            b.send(f"{domain}.enable", session=s)
        b.send("Page.setInterceptFileChooserDialog", {"enabled": True}, session=s)

        def js(expression, timeout=30):
            r = b.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session=s, timeout=timeout)
            if "exceptionDetails" in r:
                raise RuntimeError("script: " + json.dumps(r["exceptionDetails"].get("exception", {}).get("description", r["exceptionDetails"]))[:400])
            return r["result"].get("value")

        def shot(name):
            path = os.path.join(args.out, name + ".png")
            m = b.send("Page.getLayoutMetrics", session=s)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": m["width"], "height": min(m["height"], 4000), "scale": 1}
            data = b.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}, session=s)["data"]
            with open(path, "wb") as f: f.write(base64.b64decode(data))
            report["screenshots"].append(path)

        def wait_posted(count, what):
            """Until `count` jobs have their id (posted), failing at an error shown in the page."""
            deadline = time.monotonic() + 60
            while js("document.querySelectorAll('.job[data-job]').length") < count:
                if js("!document.getElementById('error').hidden"):
                    raise RuntimeError("the page shows an error: " + js("document.getElementById('error-text').textContent"))
                if time.monotonic() > deadline: raise TimeoutError(f"the job of {what} was not posted")
                time.sleep(0.1)

        def key(name, code, keycode, text=None):
            for kind in ("keyDown", "keyUp"):
                params = {"type": kind, "key": name, "code": code, "windowsVirtualKeyCode": keycode}
                if text and kind == "keyDown": params["text"] = text
                b.send("Input.dispatchKeyEvent", params, session=s)

        b.send("Page.navigate", {"url": args.url}, session=s)
        b.wait_event("Page.loadEventFired", timeout=30)
        if not js("!!document.getElementById('drop') && !!document.getElementById('file')"):
            raise RuntimeError(f"{args.url} is not the web app (no drop zone and file input): "
                               + str(js("document.body ? document.body.innerText.slice(0, 200) : ''")))
        report["lang"] = {"initial": js("document.documentElement.lang")}
        report["resources"] = js("[location.href, ...performance.getEntriesByType('resource').map(e => e.name)]")

        # Keyboard: Tab from the top of the page until the drop zone has the focus (the order is reported).
        for _ in range(8):
            key("Tab", "Tab", 9)
            focused = js("document.activeElement.id || document.activeElement.className || document.activeElement.tagName")
            report["focusOrder"].append(focused)
            if focused == "drop": break
        report["dropFocusOutline"] = js("getComputedStyle(document.activeElement).outlineStyle")
        shot("01-empty-en")
        js("document.getElementById('lang').click()")
        report["lang"]["switched"] = js("document.documentElement.lang")
        report["dropLabelJa"] = js("document.getElementById('drop-label').textContent")
        js("document.getElementById('drop').focus()")
        shot("02-empty-ja")

        # Enter on the focused drop zone opens the chooser; the chooser (the page's <input type=file>) gets the
        # files: each FILE argument is one job, chosen in turn (a comma-joined argument: several files, one job).
        for i, group in enumerate(args.files):
            js("document.getElementById('drop').focus()")
            if i % 2 == 0: key("Enter", "Enter", 13, "\r")   # the first job's chooser by Enter, the second's by Space
            else: key(" ", "Space", 32, " ")
            chooser = b.wait_event("Page.fileChooserOpened", timeout=30)
            report.setdefault("choosersOpened", []).append("Enter" if i % 2 == 0 else "Space")
            files = [os.path.abspath(f) for f in group.split(",")]
            b.send("DOM.setFileInputFiles", {"files": files, "backendNodeId": chooser["backendNodeId"]}, session=s)
            wait_posted(i + 1, group)

        # A book by its IIIF manifest: its URL typed into the page's field, Enter submits the form.
        def type_manifest(url):
            js("(() => { const f = document.getElementById('manifest'); f.value = ''; f.focus(); })()")
            b.send("Input.insertText", {"text": url}, session=s)
            key("Enter", "Enter", 13, "\r")
        for url in args.manifest:
            posted = js("document.querySelectorAll('.job[data-job]').length")
            type_manifest(url)
            wait_posted(posted + 1, url)
            report.setdefault("manifestFieldAfter", []).append(js("document.getElementById('manifest').value"))
        expected_jobs = len(args.files) + len(args.manifest)

        # Progress, then every page of every job read and shown (bounded).
        state = """(() => {
          const error = document.getElementById('error');
          return {jobs: [...document.querySelectorAll('.job')].map(job => ({state: job.dataset.state || 'uploading',
                  status: job.querySelector('.status').textContent,
                  // Each page's state from the page list; the page shown (one at a time) loaded with its image.
                  pages: [...job.querySelectorAll('.tp')].map(p => ({n: +p.dataset.page, state: p.dataset.state})),
                  shown: [...job.querySelectorAll('.page')].map(p => ({n: +p.dataset.page, state: p.dataset.state,
                          loaded: p.dataset.loaded === 'true', image: !!p.querySelector('.sheet img') && p.querySelector('.sheet img').complete
                          && p.querySelector('.sheet img').naturalWidth > 0}))})),
                  error: error.hidden ? null : document.getElementById('error-text').textContent};
        })()"""
        deadline = time.monotonic() + args.timeout
        progress_shot = False
        while True:
            st = js(state)
            if st["error"]: raise RuntimeError("the page shows an error: " + st["error"])
            if not progress_shot and any(j["state"] in ("queued", "running") and j["pages"] for j in st["jobs"]):
                shot("03-progress-ja"); progress_shot = True
                report["progressStatus"] = [j["status"] for j in st["jobs"]]
            finished = len(st["jobs"]) == expected_jobs and all(
                j["state"] in ("done", "cancelled") and j["pages"] and all(p["state"] in ("done", "failed") for p in j["pages"])
                and all(p["state"] == "failed" or (p["loaded"] and p["image"]) for p in j["shown"]) for j in st["jobs"])
            if finished: break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the jobs were not shown read within {args.timeout:.0f} s: {json.dumps(st, ensure_ascii=False)}")
            time.sleep(0.25)
        if not progress_shot: shot("03-progress-ja")   # every page was read between two looks: the screenshot shows them done

        # The pages are shown one at a time: each job's pages visited in turn (the page field, typed, Enter), and on
        # each where each line's text is laid out: the element at its box's middle, the rectangle of its text.
        def show(job_id, n):
            js(f"(() => {{ const f = document.querySelector('#job-{job_id} .jump'); f.focus(); f.select(); }})()")
            b.send("Input.insertText", {"text": str(n)}, session=s)
            key("Enter", "Enter", 13, "\r")
            deadline = time.monotonic() + 60
            ready = (f"(() => {{ const p = document.querySelector('#job-{job_id} .page'); if (!p || +p.dataset.page !== {n}) return false;"
                     " if (p.dataset.state === 'failed') return true; const i = p.querySelector('.sheet img');"
                     " return p.dataset.loaded === 'true' && !!i && i.complete && i.naturalWidth > 0; })()")
            while not js(ready):
                if time.monotonic() > deadline: raise TimeoutError(f"page {n} of job {job_id} was not shown")
                time.sleep(0.1)
        page_report = """(page => {
          const sheet = page.querySelector('.sheet');
          if (!sheet) return {n: +page.dataset.page, state: page.dataset.state, lines: [], list: []};
          const lines = [...sheet.querySelectorAll('.ol:not(.ruby)')].map(line => {
            line.scrollIntoView({block: 'center', inline: 'center'});  // elementFromPoint sees the viewport only
            const r = sheet.getBoundingClientRect();
            const scale = r.width / Number(sheet.dataset.width);
            const [x, y, w, h] = line.dataset.box.split(' ').map(Number);
            const box = {left: r.left + x * scale, top: r.top + y * scale, right: r.left + (x + w) * scale, bottom: r.top + (y + h) * scale};
            const range = document.createRange();
            range.selectNodeContents(line.querySelector('.t'));
            const t = range.getBoundingClientRect();
            const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
            return {id: line.id, line: Number(line.dataset.line), text: range.toString(), lang: line.closest('[lang]').lang,
                    writingMode: getComputedStyle(line).writingMode,
                    box, textRect: {left: t.left, top: t.top, right: t.right, bottom: t.bottom},
                    hit: hit && hit.closest('.ol') ? hit.closest('.ol').id : null};
          });
          const list = [...page.querySelectorAll('ol.lines:not(.weak) li')].map(li => {
            const c = li.cloneNode(true); c.querySelectorAll('small, rt').forEach(e => e.remove()); return c.textContent; });
          return {n: +page.dataset.page, state: page.dataset.state, name: page.querySelector('h4').textContent,
                  lines, list, listLang: page.querySelector('ol.lines').lang,
                  ruby: [...page.querySelectorAll('ol.lines ruby')].map(r => ({base: [...r.childNodes].filter(n => n.nodeName !== 'RT').map(n => n.textContent).join(''),
                                                                                  reading: r.querySelector('rt').textContent})),
                  downloads: [...page.querySelectorAll('.page-downloads a')].map(a => a.dataset.format),
                  links: [...page.querySelectorAll('.page-downloads a')].map(a => a.getAttribute('href')),
                  credit: page.querySelector('.attribution') ? page.querySelector('.attribution').textContent : null,
                  rights: page.querySelector('.attribution a.rights') ? page.querySelector('.attribution a.rights').href : null};
        })"""
        report["jobs"] = js("""[...document.querySelectorAll('.job')].map(job => ({
          id: job.dataset.job, title: job.querySelector('h3').textContent, state: job.dataset.state,
          status: job.querySelector('.status').textContent,
          downloads: [...job.querySelectorAll('.job-downloads a')].map(a => a.dataset.format),
          count: job.querySelectorAll('.tp').length}))""")
        page_links = []
        for job in report["jobs"]:
            job["pages"] = []
            for n in range(1, job.pop("count") + 1):
                show(job["id"], n)
                page = js(f"({page_report})(document.querySelector('#job-{job['id']} .page'))")
                page_links += page.pop("links", None) or []
                job["pages"].append(page)
            show(job["id"], 1)   # each job back at its first page
        # The browser's search finds each job's first page's longest line in the text over the image (the layer comes
        # before the list in the page), and the selection it makes lies on the line's box.
        report["found"] = js("""[...document.querySelectorAll('.job .page[data-page="1"] .sheet')].map(sheet => {
          const line = [...sheet.querySelectorAll('.ol:not(.ruby)')].sort((a, b) => b.textContent.length - a.textContent.length)[0];
          if (!line) return null;
          getSelection().removeAllRanges();
          window.scrollTo(0, 0);
          const found = window.find(line.textContent, true, false, false, false, false, false);
          const selection = getSelection();
          const at = selection.rangeCount ? selection.getRangeAt(0).commonAncestorContainer : null;
          const element = at && (at.nodeType === 1 ? at : at.parentElement);
          const r = selection.rangeCount ? selection.getRangeAt(0).getBoundingClientRect() : null;
          const s = sheet.getBoundingClientRect(), k = s.width / Number(sheet.dataset.width);
          const [x, y, w, h] = line.dataset.box.split(' ').map(Number);
          const result = {text: line.textContent, found, selected: selection.toString(), inLine: element ? element.closest('.ol') === line : false,
                          selection: r && {left: r.left, top: r.top, right: r.right, bottom: r.bottom},
                          box: {left: s.left + x * k, top: s.top + y * k, right: s.left + (x + w) * k, bottom: s.top + (y + h) * k}};
          selection.removeAllRanges();
          return result;
        })""")
        # Every download link answers (status and type; the bodies are not kept).
        # (each page's links as they were shown on it, with the jobs' links)
        report["links"] = js("""Promise.all([...[...document.querySelectorAll('.job-downloads a')].map(a => a.getAttribute('href')), ...%s].map(href =>
          fetch(href).then(r => ({href, status: r.status, type: r.headers.get('content-type')}))))""" % json.dumps(page_links), timeout=120)
        js("window.scrollTo(0, 0)")
        shot("04-result-ja")
        js("document.getElementById('lang').click()")
        report["lang"]["back"] = js("document.documentElement.lang")
        report["statusEn"] = js("[...document.querySelectorAll('.job .status')].map(s => s.textContent)")
        shot("05-result-en")

        # Each job's PDF through the page's own link.
        report["downloads"] = []
        for job in report["jobs"]:
            js(f"document.querySelector('#job-{job['id']} .job-downloads a[data-format=pdf]').click()")
            begun = b.wait_event("Browser.downloadWillBegin", timeout=30)
            done = b.wait_event("Browser.downloadProgress", timeout=60,
                                where=lambda p: p.get("guid") == begun["guid"] and p.get("state") in ("completed", "canceled"))
            pdf = os.path.join(downloads, begun["guid"])
            if done.get("state") != "completed" or not os.path.exists(pdf): raise RuntimeError("a PDF download did not complete")
            final = os.path.join(downloads, job["id"] + ".pdf")
            os.replace(pdf, final)
            report["downloads"].append({"job": job["id"], "path": final, "suggestedFilename": begun.get("suggestedFilename"),
                                        "bytes": os.path.getsize(final)})
        # A file the server refuses: its error ({"error","message"}) shown in the page.
        if args.refused:
            b.send("Page.setInterceptFileChooserDialog", {"enabled": False}, session=s)
            root = b.send("DOM.getDocument", session=s)["root"]["nodeId"]
            node = b.send("DOM.querySelector", {"nodeId": root, "selector": "#file"}, session=s)["nodeId"]
            b.send("DOM.setFileInputFiles", {"files": [os.path.abspath(args.refused)], "nodeId": node}, session=s)
            deadline = time.monotonic() + 30
            while not js("!document.getElementById('error').hidden"):
                if time.monotonic() > deadline: raise TimeoutError("no error shown for the refused file")
                time.sleep(0.2)
            report["refused"] = {"error": js("document.getElementById('error-text').textContent"),
                                 "jobs": js("document.querySelectorAll('.job').length")}
            js("window.scrollTo(0, 0)")
            shot("06-refused-en")
        # A manifest the server cannot read: the API's refusal (422) shown in the page, no job added.
        if args.bad_manifest:
            js("document.getElementById('error-close').click()")
            type_manifest(args.bad_manifest)
            deadline = time.monotonic() + 30
            while not js("!document.getElementById('error').hidden"):
                if time.monotonic() > deadline: raise TimeoutError("no error shown for the refused manifest")
                time.sleep(0.2)
            report["badManifest"] = {"error": js("document.getElementById('error-text').textContent"),
                                     "jobs": js("document.querySelectorAll('.job').length"),
                                     "field": js("document.getElementById('manifest').value")}
            js("window.scrollTo(0, 0)")
            shot("07-bad-manifest-en")
            js("document.getElementById('error-close').click()")
        # "Remove" on a job (--remove, or the newest, listed first): gone from the page and from the server.
        if not args.keep:
            last = next((j["id"] for j in report["jobs"] if j["title"] == args.remove), report["jobs"][0]["id"])
            js(f"document.querySelector('#job-{last} button.remove').click()")
            js("document.querySelector('.undo .confirm').click()")   # removal is offered with Undo: confirmed at once
            deadline = time.monotonic() + 30
            while js(f"!!document.getElementById('job-{last}')"):
                if time.monotonic() > deadline: raise TimeoutError("the removed job stayed in the page")
                time.sleep(0.2)
            report["removed"] = {"job": last, "status": js(f"fetch('v1/jobs/{last}').then(r => r.status)"),
                                 "jobs": js("document.querySelectorAll('.job').length")}
        # A reload shows the jobs the server still keeps (the removed one not), their pages read.
        b.send("Page.reload", session=s)
        b.wait_event("Page.loadEventFired", timeout=30)
        deadline = time.monotonic() + 60
        kept = len(report["jobs"]) - (0 if args.keep else 1)
        while not js(f"document.querySelectorAll('.job').length === {kept} && [...document.querySelectorAll('.job')].every(j => j.querySelector('.page[data-loaded=true]'))"):
            if time.monotonic() > deadline: raise TimeoutError("the jobs were not shown again after a reload")
            time.sleep(0.2)
        report["reloaded"] = js("[...document.querySelectorAll('.job')].map(j => ({id: j.dataset.job, title: j.querySelector('h3').textContent, pages: j.querySelectorAll('.tp[data-state=done]').length}))")
        try: b.send("Browser.close", timeout=5)
        except Exception: pass
    except Exception as e:
        return report_failure(b, "webapp-browser", e, report, lambda name: shot(name), keep_log=args.out)   # shot: not yet made if the tab failed
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
