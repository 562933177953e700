"""`make bench-serve`'s edits (issue 36; docs/serve.md, "Proofreading"): PATCHes on a 1,000-page job's pages while
another job's pages are being read, each edit's wall latency (request sent to answer read, over a new connection).

The 1,000-page job is made without OCR: a server reads one page (POST /v1/ocr, samples/scaned0.png) and is stopped;
its result JSON is written as the 1,000 pages of one job in a fresh work directory (`jobs/<id>/job.json`, `out/`
with one result per page, `done`), as a job the server read would leave it, and the server is started on it: its
start-up sync (docs/serve.md, "Proofreading") stores the 1,000 readings in the corpus. Then a job of `reading`
copies of the page is posted, and while its pages are read each edit GETs a random page of the big job (its ETag)
and PATCHes one line's text with If-Match. Only the PATCH is timed. Python's standard library only.
"""
import http.client
import json
import os
import random
import shutil
import tempfile
import time
import uuid


def _percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))]


def seed_job(work, result, pages):
    """Writes a done job of `pages` pages, each `result` (a page result JSON, bytes), under `work`; its id."""
    job = uuid.uuid4().hex
    folder = os.path.join(work, "jobs", job)
    os.makedirs(os.path.join(folder, "out"))
    os.makedirs(os.path.join(folder, "in"))
    record = {"id": job, "ruby": "drop", "inputs": [{"file": "book.tiff", "name": "book.tiff", "pageCount": pages}],
              "pages": [{"n": n, "input": 0, "page": n - 1, "name": f"book.tiff p{n}"} for n in range(1, pages + 1)]}
    with open(os.path.join(folder, "job.json"), "w") as f:
        json.dump(record, f)
    for n in range(1, pages + 1):
        with open(os.path.join(folder, "out", f"book_p{n:04d}.json"), "wb") as f:
            f.write(result)
    open(os.path.join(folder, "done"), "w").close()
    return job


def run_edits(make_server, request, multipart, page_path, edits, pages, reading, corpus_dir, log_dir, ready_timeout):
    """Runs the edits; returns the lines to print (the PATCHes' p50/p95/p99, the GETs', the load average). `make_server(work)` gives a started-able `Server` on `work`;
    `corpus_dir`: the folder the work directory (and so corpus.sqlite) is made in (e.g. /dev/shm), None for log_dir."""
    with open(page_path, "rb") as f:
        data = f.read()
    body, content_type = multipart("file", os.path.basename(page_path), data, "image/png")
    work = tempfile.mkdtemp(prefix="serve-edits-work-", dir=corpus_dir or log_dir)
    server = make_server(work)
    lines = []
    try:
        server.start(ready_timeout)
        status, _, result = request(server.port, "POST", "/v1/ocr", body, {"Content-Type": content_type}, 600)
        if status != 200:
            return [f"- edits: the page to seed with got HTTP {status}"]
        server.stop()
        job = seed_job(work, result, pages)
        t0 = time.monotonic()
        server.start(ready_timeout)
        synced = time.monotonic() - t0
        # The job being read beside the edits: `reading` copies of the page.
        boundary = uuid.uuid4().hex
        parts = b"".join((f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p{i}.png\"\r\n"
                          f"Content-Type: image/png\r\n\r\n").encode() + data + b"\r\n" for i in range(reading))
        status, _, posted = request(server.port, "POST", "/v1/jobs", parts + f"--{boundary}--\r\n".encode(),
                                    {"Content-Type": f"multipart/form-data; boundary={boundary}"}, 120)
        reader = json.loads(posted)["id"] if status == 202 else None
        rng = random.Random(36)
        latencies, gets, refused, read_during = [], [], {}, 0
        loads = [open("/proc/loadavg").read().split()[0]]
        for i in range(edits):
            n = rng.randint(1, pages)
            t = time.monotonic()
            status, headers, page = request(server.port, "GET", f"/v1/jobs/{job}/pages/{n}", timeout=60)
            gets.append(time.monotonic() - t)
            doc = json.loads(page)
            ids = [l["id"] for l in doc.get("lines", []) if not l.get("deleted")]
            if not ids:
                continue
            edit = json.dumps({"lines": [{"id": rng.choice(ids), "text": f"校正{i}"}]}).encode()
            t = time.monotonic()
            status, _, _ = request(server.port, "PATCH", f"/v1/jobs/{job}/pages/{n}", edit,
                                   {"Content-Type": "application/json", "If-Match": headers.get("etag", "")}, 60)
            elapsed = time.monotonic() - t
            if status == 200:
                latencies.append(elapsed)
            else:
                refused[status] = refused.get(status, 0) + 1
            if reader and i % 50 == 0:
                _, _, st = request(server.port, "GET", f"/v1/jobs/{reader}", timeout=60)
                state = json.loads(st)
                if state.get("state") == "running":
                    read_during += 1
                loads.append(open("/proc/loadavg").read().split()[0])
        state = {}
        if reader:
            _, _, st = request(server.port, "GET", f"/v1/jobs/{reader}", timeout=60)
            state = json.loads(st)
        ms = [1000 * x for x in latencies]
        where = "tmpfs" if corpus_dir and corpus_dir.startswith("/dev/shm") else "disk"
        lines.append(f"- edits ({where}: {work}/corpus.sqlite): {len(ms)} PATCHes answered 200 on a {pages}-page job "
                     f"(its readings stored at start-up in {synced:.1f} s), refused {refused or 'none'}; "
                     f"p50 {_percentile(ms, 50):.1f} ms, p95 {_percentile(ms, 95):.1f} ms, p99 {_percentile(ms, 99):.1f} ms, "
                     f"max {max(ms, default=float('nan')):.1f} ms (the page's GET before each, no write: p50 "
                     f"{_percentile([1000 * x for x in gets], 50):.1f} ms, p95 {_percentile([1000 * x for x in gets], 95):.1f} ms); the job being read beside them was running at "
                     f"{read_during} of {len(loads) - 1} checks (pages done by the end: "
                     f"{state.get('progress', {}).get('done', '?')} of {reading}); load average during: "
                     f"{', '.join(loads)}")
        if reader:
            request(server.port, "DELETE", f"/v1/jobs/{reader}", timeout=60)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return lines
