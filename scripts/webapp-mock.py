#!/usr/bin/env python3
"""A stand-in for `koten-ocr serve` while the web app is worked on: serves the web app (read from
Sources/KotenOCRServer/WebApp/*.swift on every request, so an edit shows at the next reload) and the job API of
docs/serve.md with canned results: every page is samples/scaned0.png (or --page) read once by `koten-ocr` at start.
Loopback only. Usage: scripts/webapp-mock.py --cli .build/debug/koten-ocr [--port 8099]"""
import argparse, email.parser, email.policy, io, json, os, re, subprocess, sys, tempfile, threading, time, uuid, zipfile
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
from urllib.parse import urlsplit, parse_qs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEBAPP = os.path.join(ROOT, "Sources/KotenOCRServer/WebApp")
EXT = {"json": "json", "txt": "txt", "alto": "alto.xml", "page": "page.xml", "hocr": "hocr", "html": "html", "pdf": "pdf"}
TYPES = {"json": "application/json", "txt": "text/plain; charset=utf-8", "alto": "application/xml", "page": "application/xml",
         "hocr": "text/html; charset=utf-8", "html": "text/html; charset=utf-8", "pdf": "application/pdf"}


def literal(file, name):
    text = open(os.path.join(WEBAPP, file), encoding="utf-8").read()
    m = re.search(r"static let " + name + r' = #"""\n(.*?)\n"""#', text, re.S)
    return m.group(1) if m else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--port", type=int, default=8099)
    ap.add_argument("--page-seconds", type=float, default=1.0)
    ap.add_argument("--page", default=os.path.join(ROOT, "samples/scaned0.png"), help="the image every page shows (PNG)")
    args = ap.parse_args()
    canned = tempfile.mkdtemp(prefix="webapp-mock-")
    subprocess.run([args.cli, "-o", canned, "-f", "json,txt,alto,page,hocr,html,pdf", args.page], check=True)
    files = {f: open(os.path.join(canned, os.path.splitext(os.path.basename(args.page))[0] + "." + EXT[f]), "rb").read() for f in EXT}
    image = open(args.page, "rb").read()
    jobs, lock = {}, threading.Condition()

    def snapshot(job):
        return {k: job[k] for k in ("id", "state", "progress", "pages")}

    def run(job):
        for page in job["pages"]:
            with lock:
                if job["state"] == "cancelled": return
                job["state"] = "running"; page["state"] = "running"; lock.notify_all()
            time.sleep(args.page_seconds)
            with lock:
                if page["name"].startswith("bad"):
                    page["state"] = "failed"; page["error"] = "damaged image data"; job["progress"]["failed"] += 1
                else:
                    page["state"] = "done"; page["lines"] = len(json.loads(files["json"])["lines"]); job["progress"]["done"] += 1
                lock.notify_all()
        with lock:
            job["state"] = "done"; lock.notify_all()

    class Handler(BaseHTTPRequestHandler):
        def send(self, status, body, ctype="application/json", headers=()):
            if isinstance(body, (dict, list)): body = json.dumps(body, ensure_ascii=False).encode()
            elif isinstance(body, str): body = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers: self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def error(self, status, code, message):
            self.send(status, {"error": code, "message": message})

        def job(self, parts):
            job = jobs.get(parts[2]) if len(parts) > 2 else None
            if not job: self.error(404, "not_found", "no such job"); return None
            return job

        def do_GET(self):
            url = urlsplit(self.path); q = parse_qs(url.query); parts = url.path.strip("/").split("/")
            fmt = q.get("format", ["json"])[0]
            if url.path == "/": return self.send(200, literal("WebAppPage.swift", "html"), "text/html; charset=utf-8")
            if url.path == "/app.css": return self.send(200, literal("WebAppStyle.swift", "css"), "text/css; charset=utf-8")
            if url.path == "/app.js": return self.send(200, literal("WebAppScript.swift", "js"), "text/javascript; charset=utf-8")
            if url.path == "/v1/status": return self.send(200, {"version": "mock", "mode": "ppocr"})
            if parts[:2] != ["v1", "jobs"]: return self.error(404, "not_found", "no such route")
            job = self.job(parts)
            if not job: return
            if len(parts) == 3:
                with lock: return self.send(200, snapshot(job))
            if parts[3] == "events":
                self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.end_headers()
                last = None
                while True:
                    with lock:
                        s = json.dumps(snapshot(job), ensure_ascii=False)
                        if s == last: lock.wait(5); continue
                        last = s; ended = job["state"] in ("done", "cancelled")
                    self.wfile.write(f"event: {'end' if ended else 'progress'}\ndata: {s}\n\n".encode()); self.wfile.flush()
                    if ended: return
            if parts[3] == "pages" and len(parts) >= 5:
                n = int(parts[4]) if parts[4].isdigit() else 0
                if not 1 <= n <= len(job["pages"]): return self.error(404, "not_found", "no such page")
                if job["pages"][n - 1]["state"] != "done": return self.error(404, "not_done", f"page {n} is not read yet")
                if len(parts) == 6 and parts[5] == "image": return self.send(200, image, "image/png")
                if fmt == "pdf": return self.error(400, "bad_option", "a page's PDF is part of the job's: GET /v1/jobs/{id}/result?format=pdf")
                if fmt not in EXT: return self.error(400, "bad_option", f"unknown format '{fmt}'")
                return self.send(200, files[fmt], TYPES[fmt])
            if parts[3] == "result":
                if job["state"] != "done": return self.error(409, "not_done", "the job is not done")
                if fmt == "pdf": return self.send(200, files["pdf"], "application/pdf")
                if fmt == "txt": return self.send(200, b"".join(files["txt"] + b"\f" for p in job["pages"]), TYPES["txt"])
                if fmt.endswith("-zip"): fmt = fmt[:-4]
                if fmt not in EXT: return self.error(400, "bad_option", f"unknown format '{fmt}'")
                buf = io.BytesIO()
                with zipfile.ZipFile(buf, "w") as z:
                    for p in job["pages"]: z.writestr(f"p{p['n']:04d}.{EXT[fmt]}", files[fmt])
                return self.send(200, buf.getvalue(), "application/zip")
            self.error(404, "not_found", "no such route")

        def do_DELETE(self):
            parts = urlsplit(self.path).path.strip("/").split("/")
            job = self.job(parts)
            if job:
                with lock: job["state"] = "cancelled"; jobs.pop(job["id"], None); lock.notify_all()
                self.send_response(204); self.end_headers()

        def do_POST(self):
            if urlsplit(self.path).path != "/v1/jobs": return self.error(404, "not_found", "no such route")
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + self.headers.get("Content-Type", "").encode() + b"\r\n\r\n" + body)
            pages = []
            for part in msg.iter_parts() if msg.is_multipart() else []:
                name, data = part.get_filename() or "upload", part.get_payload(decode=True) or b""
                if name.startswith("empty") or not data: return self.error(422, "undecodable", f"{name}: the bytes do not decode as an image")
                if not data.startswith((b"\x89PNG", b"\xff\xd8", b"%PDF", b"II*", b"MM\0*", b"PK", b"RIFF")):
                    return self.error(415, "unsupported_media_type", f"{name}: not an image, PDF, TIFF or zip")
                count = max(1, len(re.findall(rb"/Type\s*/Page[^s]", data))) if data.startswith(b"%PDF") else 1
                pages += [f"{name} page {i + 1}" if count > 1 else name for i in range(count)]
            if not pages: return self.error(400, "no_file", "no file in the request")
            jid = uuid.uuid4().hex
            job = {"id": jid, "state": "queued", "progress": {"done": 0, "failed": 0, "total": len(pages)},
                   "pages": [{"n": i + 1, "name": p, "state": "queued"} for i, p in enumerate(pages)]}
            with lock: jobs[jid] = job
            threading.Thread(target=run, args=(job,), daemon=True).start()
            self.send(202, dict(snapshot(job), links={"self": f"/v1/jobs/{jid}", "events": f"/v1/jobs/{jid}/events"}))

        def log_message(self, *a): pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"mock on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
