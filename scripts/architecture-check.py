#!/usr/bin/env python3
"""Measures the floor plan of Sources/KotenOCRKit (docs/architecture.md, "Checking the plan").

Prints, for the library:
  - public top-level types (declarations at column 0 with `public`/`open`),
  - folder dependencies: folder A depends on folder B when a file in A names a top-level type declared in B;
    two-way pairs are listed (a wing is Modes/<Mode>; every other folder is its top-level folder),
  - sites that switch on the mode (`case .ppocr` and friends),
  - citations of docs (`docs/<name>.md §x`) and whether each document and section exists.
Exit status 1 when a citation does not resolve or a forbidden dependency exists (see FORBIDDEN below).
"""
import os, re, sys, collections

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "Sources", "KotenOCRKit")

# Dependencies the architecture forbids (docs/architecture.md "What may depend on what").
# A mode wing never uses another mode wing; shared rooms never use a mode wing, except Core, whose mode
# descriptor is the one place that names the wings.
def forbidden(a, b):
    if a.startswith("Modes/") and b.startswith("Modes/") and a != b:
        return "a mode wing uses another mode wing"
    if b.startswith("Modes/") and not a.startswith("Modes/") and a != "Core":
        return "a shared room uses a mode wing"
    if a == "ReferenceSemantics" and b not in ("ReferenceSemantics", "Geometry", "Support"):
        return "the reference-semantics room depends on the engine"
    return None

def folder_of(path):
    rel = os.path.relpath(path, LIB)
    parts = rel.split(os.sep)
    if len(parts) == 1:
        return "(root)"
    if parts[0] == "Modes" and len(parts) > 2:
        return "Modes/" + parts[1]
    return parts[0]

def swift_files():
    for d, _, fs in os.walk(LIB):
        for f in fs:
            if f.endswith(".swift"):
                yield os.path.join(d, f)

DECL = re.compile(r"^(?P<access>(?:public|open|package|internal|fileprivate|private)\s+)?(?:final\s+)?(?:indirect\s+)?"
                  r"(?:struct|enum|class|actor|protocol|typealias)\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)")

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', '""', text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.splitlines())

def main():
    files = {p: open(p, encoding="utf-8").read() for p in swift_files()}
    decls = {}  # name -> folder
    public = []
    total = 0
    for p, text in files.items():
        for line in text.splitlines():
            m = DECL.match(line)
            if m:
                total += 1
                decls.setdefault(m.group("name"), folder_of(p))
                if (m.group("access") or "").strip() in ("public", "open"):
                    public.append(m.group("name"))
    edges = collections.defaultdict(set)
    for p, text in files.items():
        a = folder_of(p)
        code = strip_comments(text)
        for word in set(re.findall(r"\b[A-Z][A-Za-z0-9_]*\b", code)):
            b = decls.get(word)
            if b and b != a:
                edges[a].add((b, word))
    pairs = []
    deps = {a: {b for b, _ in s} for a, s in edges.items()}
    for a in sorted(deps):
        for b in sorted(deps[a]):
            if a < b and a in deps.get(b, set()):
                pairs.append((a, b))
    bad = [(a, b, forbidden(a, b)) for a in sorted(deps) for b in sorted(deps[a]) if forbidden(a, b)]

    switch = []
    pat = re.compile(r"case \.(ppocr|ndl|koten)\b|== \.(ppocr|ndl|koten)\b")
    for base in ("Sources",):
        for d, _, fs in os.walk(os.path.join(ROOT, base)):
            for f in fs:
                if f.endswith(".swift"):
                    p = os.path.join(d, f)
                    for i, line in enumerate(open(p, encoding="utf-8"), 1):
                        if pat.search(line):
                            switch.append(f"{os.path.relpath(p, ROOT)}:{i}")

    cites, unresolved = 0, []
    cite = re.compile(r"docs/([A-Za-z0-9_\-]+\.md)(?:\s*§\s*([0-9]+(?:\.[0-9]+)*))?")
    headings = {}
    for d, _, fs in os.walk(os.path.join(ROOT, "docs")):
        for f in fs:
            if f.endswith(".md"):
                text = open(os.path.join(d, f), encoding="utf-8").read()
                headings[f] = set(re.findall(r"^#+\s*§?\s*([0-9]+(?:\.[0-9]+)*)[\s.]", text, flags=re.M))
    stale = re.compile(r"(?<![/\w])(reference-pipelines|memory-design|setup-notes|field-notes)\.md")
    for base in ("Sources", "Tests", "scripts"):
        for d, _, fs in os.walk(os.path.join(ROOT, base)):
            for f in fs:
                if not f.endswith((".swift", ".py", ".c", ".h", ".sh")):
                    continue
                p = os.path.join(d, f)
                for i, line in enumerate(open(p, encoding="utf-8", errors="replace"), 1):
                    for m in cite.finditer(line):
                        cites += 1
                        doc, sec = m.group(1), m.group(2)
                        if doc not in headings:
                            unresolved.append(f"{os.path.relpath(p, ROOT)}:{i}: docs/{doc} does not exist")
                        elif sec and sec not in headings[doc]:
                            unresolved.append(f"{os.path.relpath(p, ROOT)}:{i}: docs/{doc} has no §{sec}")
                    if stale.search(line):
                        cites += 1
                        unresolved.append(f"{os.path.relpath(p, ROOT)}:{i}: cites a document outside docs/")

    print(f"public top-level types: {len(public)} of {total}")
    print(f"two-way folder pairs: {len(pairs)}")
    for a, b in pairs:
        print(f"  {a} <-> {b}")
    print(f"forbidden dependencies: {len(bad)}")
    for a, b, why in bad:
        names = sorted(w for f, w in edges[a] if f == b)[:5]
        print(f"  {a} -> {b}: {why} ({', '.join(names)})")
    print(f"mode switch sites: {len(switch)}")
    for s in switch:
        print(f"  {s}")
    print(f"doc citations: {cites}, resolved: {cites - len(unresolved)}")
    for u in unresolved:
        print(f"  {u}")
    if "-v" in sys.argv:
        print("public types:", ", ".join(sorted(public)))
    return 1 if unresolved or bad else 0

sys.exit(main())
