#!/usr/bin/env python3
"""Loads koten-ocr's `--format iiif` output in real IIIF libraries (docs/iiif.md, "How it is tested").

    .deps/iiif/bin/python scripts/iiif-check.py MANIFEST BASE FOLDER

MANIFEST is the run's manifest.json; BASE the --iiif-base the run used and FOLDER the output folder it stands for
(ids under BASE are read from FOLDER; an annotation page embedded in the manifest, as koten-ocr serve's
`result?format=iiif` gives them, is read where it is). Presentation 3 is loaded with iiif-prezi3 (the manifest and each
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


# What each version calls the parts the check reads: (references on a canvas, id, type, the list's type, its items,
# an item's type, its motivation, its body, the body's type, its text, its target).
TERMS = {
    3: ("annotations", "id", "type", "AnnotationPage", "items", "Annotation", "supplementing", "body", "TextualBody",
        "value", "target"),
    2: ("otherContent", "@id", "@type", "sc:AnnotationList", "resources", "oa:Annotation", "sc:painting", "resource",
        "cnt:ContentAsText", "chars", "on"),
}


def annotated_canvases(canvases, version, load, base, folder):
    """Each canvas's annotation documents, loaded by `load` (the version's library) and checked."""
    refs, ident, kind, list_type, items, item_type, motivation, body_key, body_type, text, target = TERMS[version]
    result = []
    for canvas in canvases:
        lines = []
        for reference in canvas.get(refs, []):
            if items in reference:                    # embedded in the manifest (koten-ocr serve's result?format=iiif)
                document = reference
            else:
                with open(local(reference[ident], base, folder)) as f:
                    document = json.load(f)
            load(document)
            if document.get(kind) != list_type or document.get(ident) != reference[ident]:
                fail("%s is not the %s its canvas references" % (reference[ident], list_type))
            for item in document[items]:
                body = item[body_key]
                if item[kind] != item_type or item["motivation"] != motivation or body[kind] != body_type or body["language"] != "ja":
                    fail("annotation %s is not a %s %s %s in Japanese" % (item[ident], motivation, item_type, body_type))
                lines.append({"text": body[text], "xywh": box(item[target], canvas[ident], canvas["width"], canvas["height"])})
        result.append({"id": canvas[ident], "width": canvas["width"], "height": canvas["height"], "lines": lines})
    return result


def v3(manifest, base, folder):
    import iiif_prezi3
    iiif_prezi3.Manifest(**manifest)
    return annotated_canvases(manifest["items"], 3, lambda page: iiif_prezi3.AnnotationPage(**page), base, folder)


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
    return annotated_canvases(manifest["sequences"][0]["canvases"], 2,
                              lambda document: ManifestReader(json.dumps(document), version="2.1").read(), base, folder)


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
