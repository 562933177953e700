#!/usr/bin/env python3
"""A IIIF server on 127.0.0.1 for the IIIF tests (Tests/KotenOCRKitTests/IIIF, docs/iiif.md "How it is tested").

Run with .deps/iiif/bin/python (scripts/setup.sh installs it): the images are level-0 static files written by the
IIIF Image API reference implementation (PyPI `iiif`, its `iiif.static` generator, Image API 2.1), one per fixture
page given, served with the standard library's http.server on an ephemeral port. Manifests served:

  /v3/manifest.json      Presentation 3.0: a canvas per page (in the order given), ImageService2 services, canvases
                         twice the image's size (annotations are mapped from the image read to the canvas)
  /v2/manifest.json      Presentation 2.1: the same pages
  /faults/manifest.json  Presentation 3.0, bodies without a service (fetched as they are): the first page, then
                         404, 500, 429 (Retry-After: 1), a stall (headers, then nothing), a body cut short, HTML,
                         an "image" that is an MP4 file
  /shapes2/manifest.json Presentation 2.1 shaped as Gallica publishes: Image API 1.1 services (the 1.x context and
                         compliance URIs), labels in two languages; canvas 2 an oa:Choice (default, item)
  /shapes3/manifest.json Presentation 3.0 shaped as IIIF cookbook recipes: a page stored sideways turned by an
                         ImageApiSelector (recipe 0040), the right page of a static two-page spread by a FragmentSelector,
                         then canvases painted by a video (0003), sound (0002) and a PDF, which must never be fetched
  /av/manifest.json      shapes3's video, sound and PDF canvases alone: a manifest with no image to read

Besides the level-0 files, a dynamic Image API answers through the reference implementation's request parser and
its PIL manipulator (iiif.request, iiif.manipulator_pil): /img1/<id>/… speaks Image API 1.1 (level 2: it refuses
quality `default`, as a 1.1 server must), /img3/<id>/… Image API 3.0 (level 2); ids page1, page2 (the pages) and
sideways (page 1 turned a quarter counter-clockwise). /static/ holds the spread and the media files.

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
from iiif.error import IIIFError
from iiif.info import IIIFInfo
from iiif.manipulator_pil import IIIFManipulatorPIL
from iiif.request import IIIFRequest
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

    # The dynamic services' sources, and the static spread (page 1 | page 2 on white) and media files.
    sources = {"page%d" % n: os.path.join(args.root, "page%d.png" % n) for n in range(1, len(args.pages) + 1)}
    if len(args.pages) == 1:  # one page (the privacy test's book): the spread and the shapes' second page are it again
        sources["page2"] = sources["page1"]
        sizes.append(sizes[0])
    sources["sideways"] = os.path.join(args.root, "sideways.png")
    with Image.open(sources["page1"]) as first:
        first.rotate(90, expand=True).save(sources["sideways"])
    static_dir = os.path.join(args.root, "static")
    os.makedirs(static_dir, exist_ok=True)
    spread_size = (sizes[0][0] + sizes[1][0], max(sizes[0][1], sizes[1][1]))
    spread = Image.new("RGB", spread_size, (255, 255, 255))
    for offset, n in ((0, 1), (sizes[0][0], 2)):
        with Image.open(sources["page%d" % n]) as page:
            spread.paste(page, (offset, 0))
    spread.save(os.path.join(static_dir, "spread.png"))
    with open(os.path.join(static_dir, "clip.mp4"), "wb") as f:
        f.write(b"\0\0\0\x18ftypmp42\0\0\0\0mp42isom" + b"\0" * 64)
    with open(os.path.join(static_dir, "book.pdf"), "wb") as f:
        f.write(b"%PDF-1.4\n%%EOF\n")

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
    faults = ["404", "500", "429", "stall", "short", "html", "mp4"]
    fault_canvases = [canvas3(1, full(1), False)]
    for index, fault in enumerate(faults, start=2):
        canvas = canvas3(1, "%s/fault/%s/default.jpg" % (base, fault), False)
        canvas["id"] = "%s/faults/canvas/%d" % (base, index)
        canvas["label"] = {"none": [fault]}
        fault_canvases.append(canvas)
    def service1(identifier, profile):
        return {"@context": "http://iiif.io/api/image/1/context.json", "@id": "%s/img1/%s" % (base, identifier), "profile": profile}

    def canvas2(number, labels, resource):
        width, height = sizes[number - 1]
        canvas = "%s/shapes2/canvas/%d" % (base, number)
        return {"@id": canvas, "@type": "sc:Canvas", "width": width, "height": height,
                "label": [{"@value": text, "@language": language} for language, text in labels],
                "images": [{"@id": canvas + "/image", "@type": "oa:Annotation", "motivation": "sc:painting", "on": canvas,
                            "resource": resource}]}

    def image1(number, profile):
        width, height = sizes[number - 1]
        return {"@id": "%s/img1/page%d/full/full/0/native.jpg" % (base, number), "@type": "dctypes:Image",
                "format": "image/jpeg", "width": width, "height": height, "service": service1("page%d" % number, profile)}

    shapes2 = {"@context": "http://iiif.io/api/presentation/2/context.json", "@id": base + "/shapes2/manifest.json",
               "@type": "sc:Manifest",
               "label": [{"@value": "試験の本（二・一）", "@language": "ja"}, {"@value": "A test book (2.1)", "@language": "en"}],
               "attribution": "National Diet Library (CC BY 4.0)",
               "sequences": [{"@id": base + "/shapes2/sequence", "@type": "sc:Sequence", "canvases": [
                   canvas2(1, [("ja", "一丁表"), ("en", "leaf 1 recto")],
                           image1(1, "http://library.stanford.edu/iiif/image-api/1.1/compliance.html#level2")),
                   canvas2(2, [("ja", "一丁裏"), ("en", "leaf 1 verso")],
                           {"@type": "oa:Choice", "default": dict(image1(2, "http://iiif.io/api/image/1/level2.json"), label="colour"),
                            "item": [{"@id": full(1), "@type": "dctypes:Image", "label": "infrared"}]}),
               ]}]}

    def canvas3(number, labels, width, height, body, duration=None):
        canvas = "%s/shapes3/canvas/%d" % (base, number)
        made = {"id": canvas, "type": "Canvas", "label": labels, "width": width, "height": height,
                "items": [{"id": canvas + "/page", "type": "AnnotationPage",
                           "items": [{"id": canvas + "/page/painting", "type": "Annotation", "motivation": "painting",
                                      "body": body, "target": canvas}]}]}
        if duration:
            made["duration"] = duration
        return made

    (w1, h1), (w2, h2) = sizes[0], sizes[1]
    shapes3 = {"@context": "http://iiif.io/api/presentation/3/context.json", "id": base + "/shapes3/manifest.json",
               "type": "Manifest", "label": {"ja": ["試験の本（三・〇）"], "en": ["A test book (3.0)"]},
               "items": [
                   canvas3(1, {"ja": ["一丁表"], "en": ["leaf 1 recto"]}, w1, h1, {
                       "id": base + "/shapes3/body/1", "type": "SpecificResource",
                       "source": {"id": base + "/img3/sideways/full/max/0/default.jpg", "type": "Image", "format": "image/jpeg",
                                  "width": h1, "height": w1,
                                  "service": [{"id": base + "/img3/sideways", "type": "ImageService3", "profile": "level2"}]},
                       "selector": {"@context": "http://iiif.io/api/annex/openannotation/context.json",
                                    "type": "iiif:ImageApiSelector", "rotation": "90"}}),
                   canvas3(2, {"ja": ["一丁裏"]}, w2, h2, {
                       "id": base + "/shapes3/body/2", "type": "SpecificResource",
                       "source": {"id": base + "/static/spread.png", "type": "Image", "format": "image/png",
                                  "width": spread_size[0], "height": spread_size[1]},
                       "selector": {"type": "FragmentSelector", "conformsTo": "http://www.w3.org/TR/media-frags/",
                                    "value": "xywh=%d,0,%d,%d" % (w1, w2, h2)}}),
                   canvas3(3, {"en": ["a film"]}, 640, 360, {"id": base + "/static/clip.mp4", "type": "Video",
                                                              "format": "video/mp4", "width": 640, "height": 360, "duration": 10},
                           duration=10),
                   canvas3(4, {"en": ["a reading"]}, 640, 360, {"id": base + "/static/reading.m4a", "type": "Sound",
                                                                 "format": "audio/mp4", "duration": 10}, duration=10),
                   canvas3(5, {"en": ["the book as PDF"]}, 640, 360, {"id": base + "/static/book.pdf", "type": "Text",
                                                                       "format": "application/pdf"}),
               ]}
    documents = {
        "/v3/manifest.json": v3, "/v2/manifest.json": v2,
        "/faults/manifest.json": dict(v3, id=base + "/faults/manifest.json", items=fault_canvases),
        "/shapes2/manifest.json": shapes2, "/shapes3/manifest.json": shapes3,
        # shapes3's canvases that paint no image (video, sound, a PDF): a book with nothing to read.
        "/av/manifest.json": dict(shapes3, id=base + "/av/manifest.json", items=shapes3["items"][2:]),
    }
    image_api = {"/img1/": "1.1", "/img3/": "3.0"}
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
            for prefix, version in image_api.items():
                if self.path.startswith(prefix):
                    return self.image(prefix, version)
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

        def image(self, prefix, version):
            """An Image API request answered by the reference implementation (a parse error is its status)."""
            try:
                request = IIIFRequest(api_version=version).parse_url(self.path[len(prefix):])
                source = sources.get(request.identifier)
                if source is None:
                    return self.send(404, "text/plain", b"no such image")
                with Image.open(source) as picture:
                    width, height = picture.size
                if request.info:
                    info = IIIFInfo(api_version=version, level=2, server_and_prefix=base + prefix.rstrip("/"),
                                    identifier=request.identifier, width=width, height=height)
                    return self.send(200, "application/json", info.as_json().encode())
                manipulator = IIIFManipulatorPIL(api_version=version)
                out = os.path.join(args.root, "derived-%d.jpg" % threading.get_ident())
                try:
                    _, mime = manipulator.derive(srcfile=source, request=request, outfile=out)
                    with open(out, "rb") as f:
                        body = f.read()
                finally:
                    manipulator.cleanup()
                    if os.path.exists(out):
                        os.remove(out)
                return self.send(200, mime, body)
            except IIIFError as error:
                return self.send(error.code, "text/plain", str(error).encode())

        def fault(self, kind):
            if kind in ("404", "500"):
                return self.send(int(kind), "text/plain", b"no")
            if kind == "429":
                return self.send(429, "text/plain", b"slow down", [("Retry-After", "1")])
            if kind == "mp4":
                with open(os.path.join(static_dir, "clip.mp4"), "rb") as f:
                    return self.send(200, "video/mp4", f.read())
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
