"""The DevTools protocol (CDP) over a pipe to Debian's headless Chromium, standard library only: the `Browser` the web
app's drivers share (scripts/webapp-browser.py, scripts/webapp-viewer.py). `--remote-debugging-pipe`: JSON messages
ended by NUL on file descriptors 3 and 4; no port, no network beyond the app's own loopback address.
"""
import json, os, select, shutil, subprocess, sys, time


class Browser:
    def __init__(self, profile, width=1400, height=1000):
        r_cmd, w_cmd = os.pipe()   # we write commands, Chromium reads them on fd 3
        r_evt, w_evt = os.pipe()   # Chromium writes answers and events on fd 4
        # The child's ends moved above the low descriptors so that dup2 onto 3 and 4 cannot overwrite them.
        hi_cmd, hi_evt = os.dup2(r_cmd, 100) or 100, os.dup2(w_evt, 101) or 101
        os.close(r_cmd); os.close(w_evt)

        def child():
            os.dup2(hi_cmd, 3); os.dup2(hi_evt, 4)

        self.profile = profile
        self.log = open(os.path.join(profile, "chromium.log"), "wb")
        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", f"--window-size={width},{height}",
             "--lang=en-US", "--accept-lang=en-US", "about:blank"],
            preexec_fn=child, pass_fds=(3, 4, hi_cmd, hi_evt), stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        os.close(hi_cmd); os.close(hi_evt)
        self.out, self.inp = w_cmd, r_evt
        self.buffer, self.events, self.network, self.next_id = b"", [], [], 0

    def close(self):
        for fd in (self.out, self.inp):
            try: os.close(fd)
            except OSError: pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill(); self.process.wait()
        self.log.close()

    def _read(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0: raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], min(left, 1))
            if ready:
                data = os.read(self.inp, 1 << 20)
                if not data: raise RuntimeError("Chromium closed its DevTools pipe")
                self.buffer += data
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session: message["sessionId"] = session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m: raise RuntimeError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            if "method" in m: self._keep(m)

    def drain(self, seconds):
        """Keeps the events that arrive within `seconds` (for a failure's report)."""
        deadline = time.monotonic() + seconds
        try:
            while True: self._keep(self._read(deadline))
        except (TimeoutError, RuntimeError, ValueError):
            pass

    def wait_event(self, method, timeout=30, where=lambda p: True):
        deadline = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method and where(m.get("params", {})):
                    return self.events.pop(i)["params"]
            self._keep(self._read(deadline))

    def _keep(self, m):
        """Keeps an event: of the Network domain only the requests sent and failed (for a failure's report; the
        event streams' messages and the rest are dropped, so that waits do not rescan them)."""
        method = m.get("method", "")
        if method.startswith("Network."):
            if method in ("Network.requestWillBeSent", "Network.loadingFailed"): self.network.append(m)
        elif "method" in m:
            self.events.append(m)


def failed_requests(events):
    """The page's requests that failed below HTTP (no answer), oldest first: `METHOD URL: net::ERROR` (a request the page
    cancelled itself, such as an EventSource it closed, is left out)."""
    sent, failed = {}, []
    for m in events:
        p = m.get("params", {})
        if m.get("method") == "Network.requestWillBeSent":
            sent[p.get("requestId")] = f"{p.get('request', {}).get('method', '')} {p.get('request', {}).get('url', '')}"
        elif m.get("method") == "Network.loadingFailed" and not p.get("canceled"):
            failed.append(f"{sent.get(p.get('requestId'), p.get('requestId'))}: {p.get('errorText')}")
    return failed[-8:]


def report_failure(b, name, error, report, shot, keep_log=None):
    """A driver's end on `error`: the events that still arrive kept, a screenshot `99-failure` through `shot` (a
    function of the name) if the page can take one, Chromium's log copied into `keep_log` (a folder) when given,
    one line on standard error naming the requests that failed below HTTP, the report so far on standard output.
    Returns the exit status, 1."""
    b.drain(1.0)
    failed = failed_requests(b.network)
    message = f"{type(error).__name__}: {error}" + (f"; requests that failed: {'; '.join(failed)}" if failed else "")
    try: shot("99-failure")
    except Exception: pass
    if keep_log:
        try: shutil.copy(os.path.join(b.profile, "chromium.log"), os.path.join(keep_log, "chromium.log"))
        except OSError: pass
    print(f"{name}: {message}", file=sys.stderr)
    print(json.dumps(report, ensure_ascii=False))
    return 1
