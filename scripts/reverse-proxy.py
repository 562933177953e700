#!/usr/bin/env python3
"""A reverse proxy that serves an upstream HTTP server under a path, as an operator's nginx would
(`location /ocr/ { proxy_pass http://127.0.0.1:8080/; }`): the prefix is taken off the path, the request's Host is
set to the upstream's (nginx's default), X-Forwarded-For/-Host/-Proto are added, bodies and answers are passed on
as they come (an event stream chunk by chunk). For the web app's test behind a proxy (docs/serve.md, "The web app").
Python's standard library only; 127.0.0.1 only.

Usage: reverse-proxy.py --prefix /ocr/ ; it prints `listening on PORT`, then reads the upstream's base URL
(`http://127.0.0.1:PORT`) from its standard input, and serves until its standard input closes.
"""
import argparse, http.client, http.server, sys, threading, urllib.parse

HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"}


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = None
    prefix = "/ocr/"

    def log_message(self, *args):
        pass

    def relay(self):
        if not (self.path == self.prefix.rstrip("/") or self.path.startswith(self.prefix)):
            body = b"not under the proxy's path\n"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        path = "/" + self.path[len(self.prefix):] if self.path.startswith(self.prefix) else "/"
        up = urllib.parse.urlsplit(Proxy.upstream)
        conn = http.client.HTTPConnection(up.hostname, up.port, timeout=600)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP and k.lower() != "host"}
        headers["Host"] = up.netloc
        headers["X-Forwarded-For"] = self.client_address[0]
        headers["X-Forwarded-Host"] = self.headers.get("Host", "")
        headers["X-Forwarded-Proto"] = "http"
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        conn.request(self.command, path, body=body, headers=headers)
        answer = conn.getresponse()
        self.send_response_only(answer.status, answer.reason)
        known = answer.getheader("Content-Length")
        for k, v in answer.getheaders():
            if k.lower() not in HOP and k.lower() != "date":
                self.send_header(k, v)
        streamed = known is None and self.command != "HEAD" and answer.status not in (204, 304)
        if streamed:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if self.command == "HEAD":
            conn.close()
            return
        while True:
            chunk = answer.read1(65536) if streamed else answer.read(65536)
            if not chunk:
                break
            if streamed:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            else:
                self.wfile.write(chunk)
            self.wfile.flush()
        if streamed:
            self.wfile.write(b"0\r\n\r\n")
        conn.close()

    do_GET = do_POST = do_DELETE = do_HEAD = do_OPTIONS = do_PUT = relay


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", default="/ocr/")
    args = ap.parse_args()
    Proxy.prefix = args.prefix
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    print(f"listening on {server.server_address[1]}", flush=True)
    Proxy.upstream = sys.stdin.readline().strip()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # serves until the caller closes its standard input


if __name__ == "__main__":
    main()
