#!/usr/bin/env python3
"""A IIIF server on 127.0.0.1 for the IIIF tests (Tests/KotenOCRKitTests/IIIF, docs/iiif.md "How it is tested").

Run with .deps/iiif/bin/python (scripts/setup.sh installs it): the images are level-0 static files written by the
IIIF Image API reference implementation (PyPI `iiif`, its `iiif.static` generator, Image API 2.1), one per fixture
page given, served with the standard library's http.server on an ephemeral port. Manifests served:

  /v3/manifest.json      Presentation 3.0: a canvas per page (in the order given), ImageService2 services, canvases
                         twice the image's size (annotations are mapped from the image read to the canvas)
  /v2/manifest.json      Presentation 2.1: the same pages
  /faults/manifest.json  Presentation 3.0, bodies without a service (fetched as they are): the first page, then
                         404, 500, 429 (Retry-After: 1), a stall (headers, then nothing), a body cut short, HTML

Every request's path is appended to --log (one line each) before it is answered, so the tests count downloads.
Prints `PORT <n>` on its first line of standard output when it is ready. Stops when its standard input closes
(the test process ended) or after --lifetime seconds, whichever comes first.
"""
import argparse
import http.server
import json
import os
import sys
import threading
import time

from PIL import Image
from iiif.static import IIIFStatic


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True, help="empty folder for the images")
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=900)
    parser.add_argument("pages", nargs="+", help="fixture images, in canvas order")
    args = parser.parse_args()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)
    port = server.server_address[1]
    base = "http://127.0.0.1:%d" % port
    sizes = []
    for number, page in enumerate(args.pages, start=1):
        identifier = "page%d" % number
        flat = os.path.join(args.root, identifier + ".png")
        with Image.open(page) as image:
            rgb = Image.new("RGB", image.size, (255, 255, 255))
            rgb.paste(image, mask=image.getchannel("A") if "A" in image.getbands() else None)
            rgb.save(flat)
            sizes.append(image.size)
        static = IIIFStatic(dst=os.path.join(args.root, "iiif"), tilesize=1024, api_version="2.1",
                            prefix=base + "/iiif")
        static.generate(src=flat, identifier=identifier)

    def label(number):
        return os.path.splitext(os.path.basename(args.pages[number - 1]))[0][:12]

    def canvas3(number, body_id, service):
        width, height = sizes[number - 1]
        canvas = "%s/v3/canvas/%d" % (base, number)
        body = {"id": body_id, "type": "Image", "format": "image/jpeg", "width": width, "height": height}
        if service:
            body["service"] = [{"id": "%s/iiif/page%d" % (base, number), "type": "ImageService2", "profile": "level0"}]
        return {"id": canvas, "type": "Canvas", "label": {"ja": ["%d. %s" % (number, label(number))]},
                "width": 2 * width, "height": 2 * height,
                "items": [{"id": canvas + "/page", "type": "AnnotationPage",
                           "items": [{"id": canvas + "/page/image", "type": "Annotation", "motivation": "painting",
                                      "body": body, "target": canvas}]}]}

    def full(number):
        return "%s/iiif/page%d/full/%d,/0/default.jpg" % (base, number, sizes[number - 1][0])

    pages = range(1, len(args.pages) + 1)
    v3 = {"@context": "http://iiif.io/api/presentation/3/context.json", "id": base + "/v3/manifest.json",
          "type": "Manifest", "label": {"ja": ["試験の本"]},
          "requiredStatement": {"label": {"en": ["Attribution"]}, "value": {"en": ["National Diet Library (CC BY 4.0)"]}},
          "rights": "http://creativecommons.org/licenses/by/4.0/",
          "items": [canvas3(n, full(n), True) for n in pages]}
    v2 = {"@context": "http://iiif.io/api/presentation/2/context.json", "@id": base + "/v2/manifest.json",
          "@type": "sc:Manifest", "label": "試験の本 2.1", "attribution": "National Diet Library (CC BY 4.0)",
          "license": "http://creativecommons.org/licenses/by/4.0/",
          "sequences": [{"@id": base + "/v2/sequence", "@type": "sc:Sequence", "canvases": [
              {"@id": "%s/v2/canvas/%d" % (base, n), "@type": "sc:Canvas", "label": "%d. %s" % (n, label(n)),
               "width": 2 * sizes[n - 1][0], "height": 2 * sizes[n - 1][1],
               "images": [{"@id": "%s/v2/anno/%d" % (base, n), "@type": "oa:Annotation", "motivation": "sc:painting",
                           "on": "%s/v2/canvas/%d" % (base, n),
                           "resource": {"@id": full(n), "@type": "dctypes:Image", "format": "image/jpeg",
                                        "service": {"@context": "http://iiif.io/api/image/2/context.json",
                                                    "@id": "%s/iiif/page%d" % (base, n),
                                                    "profile": "http://iiif.io/api/image/2/level0.json"}}}]}
              for n in pages]}]}
    faults = ["404", "500", "429", "stall", "short", "html"]
    fault_canvases = [canvas3(1, full(1), False)]
    for index, fault in enumerate(faults, start=2):
        canvas = canvas3(1, "%s/fault/%s/default.jpg" % (base, fault), False)
        canvas["id"] = "%s/faults/canvas/%d" % (base, index)
        canvas["label"] = {"none": [fault]}
        fault_canvases.append(canvas)
    documents = {
        "/v3/manifest.json": v3, "/v2/manifest.json": v2,
        "/faults/manifest.json": dict(v3, id=base + "/faults/manifest.json", items=fault_canvases),
    }
    log_lock = threading.Lock()
    stop = threading.Event()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=args.root, **k)

        def log_message(self, *a):
            pass

        def do_GET(self):
            with log_lock, open(args.log, "a") as log:
                log.write(self.path + "\n")
            if self.path in documents:
                return self.send(200, "application/ld+json", json.dumps(documents[self.path]).encode())
            if self.path.startswith("/fault/"):
                return self.fault(self.path.split("/")[2])
            if self.path.startswith("/iiif/") and self.path.endswith("/info.json"):
                with open(os.path.join(args.root, self.path.lstrip("/")), "rb") as f:
                    return self.send(200, "application/json", f.read())
            return super().do_GET()

        def send(self, status, content_type, body, headers=()):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def fault(self, kind):
            if kind in ("404", "500"):
                return self.send(int(kind), "text/plain", b"no")
            if kind == "429":
                return self.send(429, "text/plain", b"slow down", [("Retry-After", "1")])
            if kind == "html":
                return self.send(200, "text/html", b"<!DOCTYPE html><html><body>Sign in to view this image</body></html>")
            if kind == "short":
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.write(b"\xff\xd8\xff\xe0" + b"\0" * 996)
                self.wfile.flush()
                self.close_connection = True
                return
            if kind == "stall":
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.flush()
                stop.wait(30)  # nothing more until the client gives up (bounded)
                return
            self.send(400, "text/plain", b"unknown fault")

    server.RequestHandlerClass = Handler
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % port, flush=True)

    def watch_stdin():
        sys.stdin.read()
        stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    stop.wait(args.lifetime)
    stop.set()
    server.shutdown()


if __name__ == "__main__":
    main()
