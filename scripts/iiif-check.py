#!/usr/bin/env python3
"""Loads koten-ocr's `--format iiif` output in real IIIF libraries (docs/iiif.md, "How it is tested").

    .deps/iiif/bin/python scripts/iiif-check.py MANIFEST BASE FOLDER

MANIFEST is the run's manifest.json; BASE the --iiif-base the run used and FOLDER the output folder it stands for
(ids under BASE are read from FOLDER). Presentation 3 is loaded with iiif-prezi3 (the manifest and each
AnnotationPage, pydantic models of the 3.0 specification), 2.1 with iiif-prezi's ManifestReader (the manifest and
each sc:AnnotationList). Every annotation must be a supplementing TextualBody in Japanese (2.1: sc:painting
cnt:ContentAsText) whose target is `<its canvas>#xywh=x,y,w,h` inside the canvas. Prints one JSON object:
{"version", "canvases": [{"id", "width", "height", "lines": [{"text", "xywh"}]}]}; exits 1 with the reason on the
first problem.
"""
import json
import sys


def fail(reason):
    print(reason, file=sys.stderr)
    sys.exit(1)


def local(identifier, base, folder):
    if not identifier.startswith(base):
        fail("%s is not under the base %s" % (identifier, base))
    from urllib.parse import unquote
    return folder.rstrip("/") + "/" + unquote(identifier[len(base):].split("#")[0])


def box(target, canvas, width, height):
    if not target.startswith(canvas + "#xywh="):
        fail("target %s is not on its canvas %s" % (target, canvas))
    x, y, w, h = [int(v) for v in target.split("#xywh=")[1].split(",")]
    if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > width or y + h > height:
        fail("target %s lies outside its %dx%d canvas" % (target, width, height))
    return [x, y, w, h]


def v3(manifest, base, folder):
    import iiif_prezi3
    iiif_prezi3.Manifest(**manifest)
    canvases = []
    for canvas in manifest["items"]:
        lines = []
        for reference in canvas.get("annotations", []):
            with open(local(reference["id"], base, folder)) as f:
                page = json.load(f)
            iiif_prezi3.AnnotationPage(**page)
            if page.get("type") != "AnnotationPage" or page.get("id") != reference["id"]:
                fail("%s is not the AnnotationPage its canvas references" % reference["id"])
            for item in page["items"]:
                body = item["body"]
                if item["motivation"] != "supplementing" or body["type"] != "TextualBody" or body["language"] != "ja":
                    fail("annotation %s is not a supplementing Japanese TextualBody" % item["id"])
                lines.append({"text": body["value"], "xywh": box(item["target"], canvas["id"], canvas["width"], canvas["height"])})
        canvases.append({"id": canvas["id"], "width": canvas["width"], "height": canvas["height"], "lines": lines})
    return canvases


def offline_contexts():
    """pyld's document loader without the network: the 2.x context from iiif-prezi's own copy, the Image API's as
    empty, nothing else."""
    import os
    import iiif_prezi
    from pyld import jsonld
    bundled = {"http://iiif.io/api/presentation/2/context.json":
               os.path.join(os.path.dirname(iiif_prezi.__file__), "contexts", "context_21.json")}

    def loader(url, options=None):
        if url == "http://iiif.io/api/image/2/context.json":
            # An image service's own context (the source manifest's): no installed package ships it; its terms
            # are not the annotations' and are left unexpanded.
            return {"contextUrl": None, "documentUrl": url, "document": {"@context": {}}}
        if url not in bundled:
            fail("JSON-LD context %s is not one the reader has (no network here)" % url)
        with open(bundled[url]) as f:
            return {"contextUrl": None, "documentUrl": url, "document": json.load(f)}
    jsonld.set_document_loader(loader)


def v2(manifest, base, folder):
    from iiif_prezi.loader import ManifestReader
    offline_contexts()
    ManifestReader(json.dumps(manifest), version="2.1").read()
    canvases = []
    for canvas in manifest["sequences"][0]["canvases"]:
        lines = []
        for reference in canvas.get("otherContent", []):
            with open(local(reference["@id"], base, folder)) as f:
                annotation_list = json.load(f)
            ManifestReader(json.dumps(annotation_list), version="2.1").read()
            if annotation_list.get("@type") != "sc:AnnotationList":
                fail("%s is not an sc:AnnotationList" % reference["@id"])
            for item in annotation_list["resources"]:
                resource = item["resource"]
                if item["@type"] != "oa:Annotation" or resource["@type"] != "cnt:ContentAsText" or resource["language"] != "ja":
                    fail("annotation %s is not a Japanese cnt:ContentAsText" % item["@id"])
                lines.append({"text": resource["chars"], "xywh": box(item["on"], canvas["@id"], canvas["width"], canvas["height"])})
        canvases.append({"id": canvas["@id"], "width": canvas["width"], "height": canvas["height"], "lines": lines})
    return canvases


def main():
    path, base, folder = sys.argv[1:4]
    with open(path) as f:
        manifest = json.load(f)
    try:
        if manifest.get("type") == "Manifest":
            result = {"version": 3, "canvases": v3(manifest, base, folder)}
        elif manifest.get("@type") == "sc:Manifest":
            result = {"version": 2, "canvases": v2(manifest, base, folder)}
        else:
            fail("%s is not a IIIF manifest" % path)
    except SystemExit:
        raise
    except Exception as error:  # the libraries' own validation errors
        fail("%s: %s: %s" % (path, type(error).__name__, str(error).splitlines()[0] if str(error) else ""))
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
