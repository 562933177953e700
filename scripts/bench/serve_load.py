#!/usr/bin/env python3
"""`make bench-serve`: koten-ocr serve and rapidocr_api under the same concurrent clients, on 127.0.0.1 only.

    python3 scripts/bench/serve_load.py [--seconds 60] [--drain 60] [--levels 1,8,32,64] [--budget 300MB]
        [--servers koten,rapidocr_api] [--image samples/scaned0.png ...] [--koten .build/release/koten-ocr]
        [--koten-before OTHER/koten-ocr]

Python's standard library only (threads and http.client). It starts each server itself on an ephemeral loopback
port (koten-ocr serve --mode ppocr --memory-budget BUDGET on the project's PP-OCRv5 files; rapidocr_api through
scripts/peers/rapidocr_api_serve.py on the same files, its default single worker), waits until it is ready, sends
one warm-up page (not counted: koten-ocr loads its models on the first page), then for each level of concurrency
runs that many client threads, koten-ocr's and rapidocr_api's turns alternating level by level so both see the
machine's load of the same minutes. Each client posts the page(s) in turn, one new connection per request, until
the level's --seconds are up or the level has sent --max-requests. A request still unanswered --drain seconds after
that is given up (its connection closed; counted as unfinished). A 503 or 429 is waited out as its Retry-After
says (at most 5 s, never past the level's end), a lost request for 1 s. Before each level the server is let go idle (under 10 % of a CPU
for a second; still busy after --settle s, it is started again). A server whose process tree's resident memory passes --rss-cap is killed
(reported; its requests under way count as lost) and started again for the next level. Bounded: each level lasts
at most seconds + drain.

Measured per server and level: requests, answers by class (2xx, 503, 429, other 4xx, 5xx, lost = no answer: the
connection failed or closed; unfinished), 2xx answers whose body is not a page result, pages per minute (2xx over
the level's wall time), p50/p95/p99 latency (of the pages and the unfinished requests, these as longer than any
page: "> N s"), the server's CPU seconds per page, and the resident memory of the server's process tree (the sum
of VmRSS of the server and its children, read from /proc every 100 ms) at its peak during the level; the servers'
VmHWM. At the end koten-ocr's /v1/status (queue empty, nothing running) and /metrics (its own count of /v1/ocr
requests by status against the clients') are checked. Prints the machine (CPUs, load), one Markdown table (a row
per level and server), then a line per server for peak memory against the budget.

Then the edits (scripts/bench/serve_edits.py; --edits 0 leaves them out, --edits-only runs them alone): PATCHes on a
1,000-page job seeded without OCR while another job's pages are read, each edit's p50/p95/p99 wall latency and the
load average beside them (docs/serve.md, "Proofreading": "Edit latency"). --edits-dir /dev/shm puts their corpus on
tmpfs (no flush to a disk).
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
UNITS = {"GB": 1e9, "MB": 1e6, "KB": 1e3, "G": 1e9, "M": 1e6, "K": 1e3, "B": 1}


def size_bytes(text):
    """'300MB' -> 300e6 (decimal units, as koten-ocr's --memory-budget reads them)."""
    m = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]*)\s*", text)
    if not m or m.group(2).upper() not in UNITS:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a size such as 300MB")
    return int(float(m.group(1)) * UNITS[m.group(2).upper()])


def mb(n):
    return f"{n / 1e6:.0f} MB"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the server's process tree, from /proc ----------------------------------------------------------------------

def process_tree(root):
    """The pid `root` and every live descendant of it."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def status_kb(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def resident(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * PAGE_SIZE
        except OSError:
            pass
    return total


def cpu_seconds(pids):
    ticks, hz = 0, os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rfind(b")") + 2:].split()
            ticks += int(fields[11]) + int(fields[12])     # utime, stime
        except OSError:
            pass
    return ticks / hz


class MemorySampler(threading.Thread):
    """Every 100 ms: the resident bytes of the server's process tree; the peak since the last reset, and overall.
    A tree past `cap` is killed (SIGKILL to the server's own process group): the benchmark's bound, reported."""

    def __init__(self, proc, cap):
        super().__init__(daemon=True)
        self.proc, self.cap = proc, cap
        self.lock = threading.Lock()
        self.peak = self.overall = 0
        self.killed_at = 0                            # the resident bytes at which the cap killed it, 0 if not
        self.hwm = {}                                 # pid -> its VmHWM, the largest seen
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.wait(0.1) and self.proc.poll() is None:
            pids = process_tree(self.proc.pid)
            rss = resident(pids)
            if rss > self.cap:                        # before the VmHWM read: the tree is about to go
                with self.lock:
                    self.killed_at = rss
                for pid in pids:
                    self.hwm[pid] = max(self.hwm.get(pid, 0), status_kb(pid, "VmHWM"))
                os.killpg(self.proc.pid, signal.SIGKILL)
            with self.lock:
                self.peak = max(self.peak, rss)
                self.overall = max(self.overall, rss)

    def take_peak(self):
        """The peak since the last call; also records each process's VmHWM."""
        for pid in process_tree(self.proc.pid) if self.proc.poll() is None else []:
            self.hwm[pid] = max(self.hwm.get(pid, 0), status_kb(pid, "VmHWM"))
        with self.lock:
            peak, self.peak = self.peak, 0
        return peak


# ---- requests ---------------------------------------------------------------------------------------------------

def multipart(field, name, data, content_type):
    boundary = uuid.uuid4().hex
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n"
            f"Content-Type: {content_type}\r\n\r\n").encode()
    return head + data + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def request(port, method, path, body=None, headers=None, timeout=300.0):
    """(status, headers dict, body bytes); raises OSError / http.client.HTTPException when there is no answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


class Server:
    """A server started by this script, in its own process group, output to a log file."""

    def __init__(self, name, command, route, field, ready_path, is_page, log_dir):
        self.name, self.command, self.route, self.field = name, command, route, field
        self.ready_path, self.is_page = ready_path, is_page
        self.port = None
        self.log_path = os.path.join(log_dir, f"serve-load-{name}.log")
        self.proc = None
        if os.path.exists(self.log_path):
            os.remove(self.log_path)

    def start(self, ready_timeout):
        """Starts it on a free loopback port (a new one each start); exits the benchmark when it is never ready."""
        self.port = free_port()
        command = [a.replace("{port}", str(self.port)) for a in self.command]
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     cwd=ROOT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                sys.exit(f"serve_load: {self.name} exited with {self.proc.returncode} before it was ready "
                         f"(see {self.log_path})")
            try:
                if request(self.port, "GET", self.ready_path, timeout=5)[0] == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.25)
        self.stop()
        sys.exit(f"serve_load: {self.name} was not ready within {ready_timeout:.0f} s (see {self.log_path})")

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def koten_page(body):
    doc = json.loads(body)
    return isinstance(doc, dict) and isinstance(doc.get("lines"), list) and len(doc["lines"]) > 0


def rapidocr_page(body):
    doc = json.loads(body)
    return isinstance(doc, dict) and len(doc) > 0


class Level:
    def __init__(self):
        self.lock = threading.Lock()
        self.sent = 0
        self.counts = {"2xx": 0, "503": 0, "429": 0, "4xx": 0, "5xx": 0, "lost": 0, "unfinished": 0, "not a page": 0}
        self.latencies = []
        self.waited = []                              # how long each unfinished request had waited when given up
        self.first_error = {}


def run_level(server, pages, clients, seconds, drain, max_requests, sampler):
    """`clients` threads post pages for `seconds`; a request still unanswered `drain` seconds after that is given up
    (counted as unfinished: the client closes its connection)."""
    level = Level()
    start = time.monotonic()
    deadline = start + seconds
    hard_end = deadline + drain

    def client(index):
        turn = index
        while time.monotonic() < deadline and not sampler.killed_at and server.proc.poll() is None:
            with level.lock:
                if level.sent >= max_requests:
                    return
                level.sent += 1
            body, content_type = pages[turn % len(pages)]
            turn += 1
            t0 = time.monotonic()
            retry = None
            try:
                status, headers, data = request(server.port, "POST", server.route, body,
                                                {"Content-Type": content_type}, max(0.5, hard_end - t0))
                if 200 <= status < 300:
                    try:
                        kind = "2xx" if server.is_page(data) else "not a page"
                    except ValueError:
                        kind = "not a page"
                elif status == 503:
                    kind, retry = "503", headers.get("retry-after")
                elif status == 429:
                    kind, retry = "429", headers.get("retry-after")
                elif status >= 500:
                    kind = "5xx"
                else:
                    kind = "4xx"                      # any other answer that is not a page (4xx, or 1xx/3xx)
                detail = f"HTTP {status}: {data[:120]!r}"
            except TimeoutError as e:
                kind = "unfinished" if time.monotonic() >= hard_end - 0.5 else "lost"
                detail = f"{type(e).__name__}: {e}"
            except (OSError, http.client.HTTPException) as e:
                kind, detail = "lost", f"{type(e).__name__}: {e}"
            latency = time.monotonic() - t0
            with level.lock:
                level.counts[kind] += 1
                if kind == "2xx":
                    level.latencies.append(latency)
                elif kind == "unfinished":
                    level.waited.append(latency)
                elif kind not in level.first_error:
                    level.first_error[kind] = detail
            if kind == "lost":
                retry = "1"                           # no hot loop on a refused or reset connection
            if retry is not None:
                try:
                    wait = min(float(retry), 5.0)
                except ValueError:
                    wait = 1.0
                time.sleep(max(0.0, min(wait, deadline - time.monotonic())))

    cpu0 = cpu_seconds(process_tree(server.proc.pid))
    sampler.take_peak()
    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    level.wall = time.monotonic() - start
    level.cpu = cpu_seconds(process_tree(server.proc.pid)) - cpu0
    level.peak = sampler.take_peak()
    level.killed_at = sampler.killed_at
    level.exit_code = server.proc.poll()
    return level


def latency_text(level, p):
    """Nearest-rank percentile p of the latencies of the pages and of the unfinished requests, these counted as
    longer than any page: "> N s" (N the shortest wait of one given up) when the rank falls among them."""
    n = len(level.latencies) + len(level.waited)
    if n == 0:
        return "–"
    rank = max(1, int(-(-p * n // 100)))
    pages = sorted(level.latencies)
    if rank <= len(pages):
        return f"{pages[rank - 1]:.2f} s"
    return f"> {min(level.waited):.0f} s"


def settle(server, most):
    """Waits until the server's process tree uses under 10 % of a CPU over a second (work it still does for
    requests given up), at most `most` seconds; returns (seconds waited, whether it went idle)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < most and server.proc.poll() is None:
        before = cpu_seconds(process_tree(server.proc.pid))
        time.sleep(1.0)
        if cpu_seconds(process_tree(server.proc.pid)) - before < 0.1:
            return time.monotonic() - t0, True
    return time.monotonic() - t0, False


# ---- koten-ocr's own account ------------------------------------------------------------------------------------

def koten_checks(server, client_totals):
    lines = []
    try:
        status, _, body = request(server.port, "GET", "/v1/status", timeout=30)
        doc = json.loads(body)
        queue, jobs = doc.get("queue", {}), doc.get("jobs", {})
        idle = queue.get("depth") == 0 and jobs.get("queued", 0) == 0 and jobs.get("running", 0) == 0
        lines.append(f"- koten-ocr /v1/status ({status}): queue depth {queue.get('depth')} of {queue.get('capacity')}, "
                     f"jobs queued {jobs.get('queued')}, running {jobs.get('running')}, done {jobs.get('done')}; "
                     f"budget {doc.get('budgetBytes')} B, used {doc.get('usedBytes')} B: "
                     f"{'idle, nothing left behind' if idle else 'NOT IDLE'}")
    except (OSError, http.client.HTTPException, ValueError) as e:
        lines.append(f"- koten-ocr /v1/status: no answer ({type(e).__name__}: {e})")
    try:
        status, _, body = request(server.port, "GET", "/metrics", timeout=30)
        text = body.decode("utf-8", "replace")
        by_status = {}
        for line in text.splitlines():
            m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}\s+([0-9.eE+-]+)', line)
            if not m or "request" not in m.group(1) or not m.group(1).endswith("_total"):
                continue
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
            if not any(v.split(" ")[-1] == "/v1/ocr" for v in labels.values()):   # route="POST /v1/ocr"
                continue
            code = labels.get("status") or labels.get("code") or "?"
            by_status[code] = by_status.get(code, 0) + float(m.group(3))
        counted = {k: int(v) for k, v in sorted(by_status.items())}
        served = sum(counted.values())
        hwm = [line for line in text.splitlines() if not line.startswith("#") and
               re.search(r"high_water|hwm|resident|pages_total|pages_failed|refusals", line)]
        lines.append(f"- koten-ocr /metrics ({status}): /v1/ocr requests by status {counted or 'not found'} = {served}; "
                     f"the clients sent {client_totals['sent']} (warm-up included), got an answer to "
                     f"{client_totals['answered']}: "
                     f"{'every request accounted for' if served == client_totals['sent'] else 'MISMATCH'}")
        if hwm:
            lines.append("- koten-ocr /metrics: " + "; ".join(h.strip() for h in hwm[:12]))
    except (OSError, http.client.HTTPException) as e:
        lines.append(f"- koten-ocr /metrics: no answer ({type(e).__name__}: {e})")
    return lines


# ---- main -------------------------------------------------------------------------------------------------------

def machine_lines():
    cpus = os.cpu_count()
    usable = len(os.sched_getaffinity(0))
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        pass
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    with open("/proc/meminfo") as f:
        total = next(int(l.split()[1]) * 1024 for l in f if l.startswith("MemTotal"))
    return f"{cpus} CPUs ({usable} usable), {model}, {total / 2**30:.0f} GiB; load average before: {load}"


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60, help="duration of each level (default %(default)s)")
    ap.add_argument("--levels", default="1,8,32,64", help="concurrent clients per level (default %(default)s)")
    ap.add_argument("--budget", default="300MB", help="koten-ocr's --memory-budget (default %(default)s)")
    ap.add_argument("--servers", default="koten,rapidocr_api", help="koten and/or rapidocr_api")
    ap.add_argument("--image", action="append", help="page(s) the clients post in turn (default samples/scaned0.png)")
    ap.add_argument("--koten", default=os.path.join(ROOT, ".build/release/koten-ocr"), help="koten-ocr executable")
    ap.add_argument("--koten-before", help="a second koten-ocr executable (another build, e.g. main's), run beside "
                    "--koten as `koten-ocr before` in the same alternation: a before/after in one run")
    ap.add_argument("--koten-arg", action="append", default=[], help="extra koten-ocr serve argument (repeatable)")
    ap.add_argument("--models", default=os.path.join(ROOT, ".deps/models"), help="model folder (ppocr/ inside)")
    ap.add_argument("--peers-python", default=os.path.join(ROOT, ".deps/peers/bin/python"))
    ap.add_argument("--max-requests", type=int, default=20000, help="per server and level (default %(default)s)")
    ap.add_argument("--drain", type=float, default=60,
                    help="seconds after a level's end that requests under way are waited for (default %(default)s)")
    ap.add_argument("--settle", type=float, default=60,
                    help="most seconds to wait for an idle server before the next level; still busy then, it is "
                         "started again (default %(default)s)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds the warm-up page may take")
    ap.add_argument("--rss-cap", type=size_bytes, default=size_bytes("6GB"),
                    help="a server whose tree's resident memory passes this is killed (default 6GB)")
    ap.add_argument("--ready-timeout", type=float, default=300)
    ap.add_argument("--log-dir", default=os.path.join(ROOT, ".build"))
    ap.add_argument("--edits", type=int, default=1000,
                    help="PATCHes on a seeded job's pages while another job is read (scripts/bench/serve_edits.py; "
                         "0: none; default %(default)s)")
    ap.add_argument("--edits-pages", type=int, default=1000, help="pages of the seeded job (default %(default)s)")
    ap.add_argument("--edits-reading", type=int, default=40,
                    help="pages of the job read beside the edits (default %(default)s)")
    ap.add_argument("--edits-dir", help="folder for the edits' work directory and so its corpus.sqlite (e.g. "
                    "/dev/shm; default --log-dir)")
    ap.add_argument("--edits-only", action="store_true", help="the edits alone, no load levels")
    args = ap.parse_args()
    budget_text, args.budget = args.budget, size_bytes(args.budget)

    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    if not levels or min(levels) < 1 or max(levels) > 256:
        ap.error("--levels: 1 to 256 clients per level")
    if not 0 < args.seconds <= 600:
        ap.error("--seconds: more than 0, at most 600")
    images = args.image or [os.path.join(ROOT, "samples/scaned0.png")]
    os.makedirs(args.log_dir, exist_ok=True)

    work = tempfile.mkdtemp(prefix="serve-load-work-", dir=args.log_dir)   # koten-ocr's --work-dir, removed at the end
    servers, before = [], None
    for name in [s.strip() for s in args.servers.split(",") if s.strip()]:
        if name == "koten":
            for executable in [args.koten] + ([args.koten_before] if args.koten_before else []):
                if not os.access(executable, os.X_OK):
                    sys.exit(f"serve_load: {executable}: no such executable (make build)")
            def koten(executable, folder):
                return [executable, "serve", "--host", "127.0.0.1", "--port", "{port}", "--mode", "ppocr",
                        "--models", args.models, "--memory-budget", budget_text, "--work-dir", folder] + args.koten_arg
            servers.append(Server("koten-ocr", koten(args.koten, work), "/v1/ocr", "file", "/readyz", koten_page, args.log_dir))
            if args.koten_before:
                before = tempfile.mkdtemp(prefix="serve-load-before-", dir=args.log_dir)
                servers.append(Server("koten-ocr before", koten(args.koten_before, before), "/v1/ocr", "file", "/readyz",
                                      koten_page, args.log_dir))
        elif name == "rapidocr_api":
            if not os.access(args.peers_python, os.X_OK):
                sys.exit(f"serve_load: {args.peers_python}: no such executable (make peers)")
            command = [args.peers_python, os.path.join(ROOT, "scripts/peers/rapidocr_api_serve.py"),
                       "--port", "{port}", "--models", os.path.join(args.models, "ppocr")]
            servers.append(Server("rapidocr_api", command, "/ocr", "image_file", "/", rapidocr_page, args.log_dir))
        else:
            ap.error(f"--servers: unknown server {name!r} (koten, rapidocr_api)")

    pages = {}
    for server in servers:
        pages[server.name] = []
        for path in images:
            with open(path, "rb") as f:
                data = f.read()
            ext = os.path.splitext(path)[1].lower()
            content_type = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}.get(ext, "image/png")
            pages[server.name].append(multipart(server.field, os.path.basename(path), data, content_type))

    print(f"serve_load: {machine_lines()}")
    print(f"serve_load: pages {', '.join(os.path.relpath(p, ROOT) for p in images)}; levels {levels} clients, "
          f"{args.seconds:g} s each; koten-ocr --memory-budget {mb(args.budget)}; --rss-cap {mb(args.rss_cap)}",
          flush=True)

    def bring_up(server):
        """Starts the server, waits until it is ready, posts the warm-up page; a new sampler watches it."""
        t0 = time.monotonic()
        server.start(args.ready_timeout)
        sampler = MemorySampler(server.proc, args.rss_cap)
        sampler.start()
        server.samplers.append(sampler)
        body, content_type = pages[server.name][0]
        status, _, data = request(server.port, "POST", server.route, body, {"Content-Type": content_type},
                                  args.timeout)
        if status != 200:
            sys.exit(f"serve_load: {server.name}: the warm-up page got HTTP {status}: {data[:200]!r}")
        server.totals["sent"] += 1
        server.totals["answered"] += 1
        print(f"serve_load: {server.name} on 127.0.0.1:{server.port} (pid {server.proc.pid}) ready and warm "
              f"in {time.monotonic() - t0:.1f} s; resident {mb(resident(process_tree(server.proc.pid)))}",
              flush=True)

    rows, checks = [], []
    if args.edits_only:
        servers = []
    try:
        for server in servers:
            server.samplers, server.totals, server.starts = [], {"sent": 0, "answered": 0}, 1
            bring_up(server)
        for clients in levels if servers else []:
            for server in servers:
                settled, idle = settle(server, args.settle)
                if not idle and server.proc.poll() is None:   # still busy with requests given up: start afresh
                    print(f"serve_load: {server.name} still busy {settled:.0f} s after its last level: restarted",
                          flush=True)
                    server.stop()
                if server.proc.poll() is not None:        # killed at the cap, exited, or still busy
                    server.starts += 1
                    bring_up(server)
                load = loadavg()
                level = run_level(server, pages[server.name], clients, args.seconds, args.drain, args.max_requests,
                                  server.samplers[-1])
                server.totals["sent"] += level.sent
                server.totals["answered"] += level.sent - level.counts["lost"] - level.counts["unfinished"]
                rows.append((server.name, clients, load, level))
                c = level.counts
                end = ""
                if level.killed_at:
                    end = f"; KILLED by the benchmark at {mb(level.killed_at)} resident (--rss-cap)"
                elif level.exit_code is not None:
                    end = f"; the server EXITED with {level.exit_code}"
                print(f"serve_load: {server.name} x{clients} (after {settled:.0f} s to idle): {level.sent} sent, "
                      f"{c['2xx']} pages, {c['503']} 503, {c['5xx']} 5xx, {c['lost']} lost, {c['unfinished']} "
                      f"unfinished, peak {mb(level.peak)} in {level.wall:.1f} s{end}", flush=True)
                for kind, detail in sorted(level.first_error.items()):
                    print(f"serve_load:   first {kind}: {detail}", flush=True)
        for server in servers:
            if server.name == "koten-ocr" and server.proc.poll() is None:
                settle(server, args.settle)
                checks += koten_checks(server, server.totals)
        if args.edits > 0 and "koten" in args.servers:
            for server in servers:
                server.stop()                         # the machine to the edits and the job read beside them
            import serve_edits
            def edits_server(folder):
                return Server("koten-ocr edits", [args.koten, "serve", "--host", "127.0.0.1", "--port", "{port}", "--mode",
                              "ppocr", "--models", args.models, "--memory-budget", budget_text, "--work-dir", folder]
                              + args.koten_arg, "/v1/ocr", "file", "/readyz", koten_page, args.log_dir)
            print(f"serve_load: edits: {args.edits} PATCHes on a {args.edits_pages}-page job while {args.edits_reading} "
                  f"pages are read; load average {loadavg()}", flush=True)
            checks += serve_edits.run_edits(edits_server, request, multipart, images[0], args.edits, args.edits_pages,
                                            args.edits_reading, args.edits_dir, args.log_dir, args.ready_timeout)
    finally:
        for server in servers:
            for sampler in getattr(server, "samplers", []):
                sampler.take_peak()
                sampler.stopped.set()
            server.stop()
        shutil.rmtree(work, ignore_errors=True)
        if before:
            shutil.rmtree(before, ignore_errors=True)

    print()
    print("| server | clients | load before | requests | pages | pages/min | p50 | p95 | p99 | 503 | 429 | "
          "other 4xx | 5xx | lost | unfinished | not a page | CPU s/page | peak resident |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name, clients, load, level in rows:
        c = level.counts
        share = f"{c['503']} ({100 * c['503'] / max(1, level.sent):.1f} %)"
        per_page = f"{level.cpu / c['2xx']:.2f}" if c["2xx"] else "–"
        peak = mb(level.peak)
        if level.killed_at:
            peak += f", killed at {mb(level.killed_at)}"
        elif level.exit_code is not None:
            peak += f", exited ({level.exit_code})"
        print(f"| {name} | {clients} | {load} | {level.sent} | {c['2xx']} | {60 * c['2xx'] / level.wall:.1f} | "
              f"{latency_text(level, 50)} | {latency_text(level, 95)} | {latency_text(level, 99)} | {share} | "
              f"{c['429']} | {c['4xx']} | {c['5xx']} | {c['lost']} | {c['unfinished']} | {c['not a page']} | "
              f"{per_page} | {peak} |")
    print()
    for server in servers:
        if not getattr(server, "samplers", None):
            continue
        overall = max(s.overall for s in server.samplers)
        hwm = max(max(s.hwm.values(), default=0) for s in server.samplers)
        mine = [level for name, _, _, level in rows if name == server.name]
        errors = sum(level.counts["5xx"] for level in mine)
        lost = sum(level.counts["lost"] for level in mine)
        killed = sum(1 for level in mine if level.killed_at)
        line = (f"- {server.name}: peak resident {mb(overall)} (process tree, sampled every 100 ms), largest VmHWM "
                f"{mb(hwm)}; {errors} server errors (5xx), {lost} lost; started {server.starts} time(s)"
                + (f", killed {killed} time(s) at --rss-cap {mb(args.rss_cap)}" if killed else ""))
        if server.name.startswith("koten-ocr"):
            verdict = "within" if max(overall, hwm) <= args.budget else "ABOVE"
            line += f"; --memory-budget {mb(args.budget)}: {verdict} it"
        else:
            line += "; no memory budget (one engine; FastAPI's thread pool runs the requests side by side)"
        print(line)
    for line in checks:
        print(line)
    print(f"- load average after: {loadavg()}")


if __name__ == "__main__":
    main()
