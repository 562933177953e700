#!/usr/bin/env python3
"""Checks the floor plan of Sources/KotenOCRKit against docs/architecture.md ("What may depend on what"), and that of
the wings beside it: the server (Sources/KotenOCRServer, "The server wing") and IIIF (Sources/KotenOCRIIIF).

Prints, for the library:
  - public top-level types (declarations at column 0 with `public`/`open`), and whether the public nested types
    docs/architecture.md names (`Owner.Name`) are declared public one level inside their owner,
  - folder dependencies: room A depends on room B when code in A (comments and string literals left out,
    string interpolations kept) names a top-level type declared in B. A room is a top-level folder of
    Sources/KotenOCRKit, except that each mode wing `Modes/<Mode>` is a room of its own, the files directly in
    `Modes/` are the registry (`Modes`), and the files directly in Sources/KotenOCRKit are the façade (`(root)`);
    two-way pairs are listed, each allowed one with its reason (ALLOWED_PAIRS),
  - forbidden dependencies (RULES below) and dependency cycles between rooms other than the allowed pairs,
  - sites that switch on the mode (`case .ppocr`, `mode == .ndl` and friends; the registry's are expected),
  - citations of docs (`docs/<name>.md §x "phrase"`): the document must exist, every § must be one of its
    headings and every quoted phrase must occur in it; a bare `reference-pipelines.md` (or another design
    document's name) without `docs/` is a citation of a document outside the repository.
And for the wings: the server's rooms (HTTP/, API/, Jobs/, Limits/, WebApp/ and the files beside them), which may use
which (SERVER_MAY_USE) and that only API/ and HTTP/ name the HTTP request and response types; the imports of the
library, server and IIIF targets (TARGET_MAY_IMPORT), and that each C library is imported by its one seam (SEAMS).
Exit status 1 when a forbidden dependency or cycle exists, a wing breaks its rules, a citation does not resolve, a public top-level type
is not in the façade or a nested one the façade names is not declared.
Options: -v also lists the public types; --edges prints every dependency with the names that make it.
"""
import collections, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "Sources", "KotenOCRKit")

FACADE, REGISTRY, REFERENCE = "(root)", "Modes", "ReferenceSemantics"
# Rooms above the registry: the only ones that ask it for a mode's descriptor.
TOP = {FACADE, "Batch"}
# Two-way pairs that stay, and why (docs/architecture.md, "What may depend on what").
ALLOWED_PAIRS = {
    ("Core", "Memory"): "the store plans memory per mode (OCRMode) and a bad model file is a ModelError; "
                        "Core's stage seams run their models through the store (ModelStore, ModelDescriptor)",
}


def is_wing(room):
    return room.startswith(REGISTRY + "/")


def forbidden(a, b):
    """Why `a` may not depend on `b`, or None."""
    if a == REFERENCE:
        return "the reference-semantics room depends on nothing of the engine"
    if is_wing(a) and is_wing(b):
        return "a mode wing uses another mode wing"
    if is_wing(b) and a != REGISTRY:
        return "a shared room uses a mode wing (only the registry, Modes/ModeRegistry.swift, names the wings)"
    if b == REGISTRY and a not in TOP:
        return "only the façade and the batch ask the registry (others take an `any ModeDescriptor`)"
    return None


def room_of(path):
    parts = os.path.relpath(path, LIB).split(os.sep)
    if len(parts) == 1:
        return FACADE
    if parts[0] == REGISTRY:
        return REGISTRY + "/" + parts[1] if len(parts) > 2 else REGISTRY
    return parts[0]


def files_under(base, suffixes):
    for d, _, fs in os.walk(base):
        for f in sorted(fs):
            if f.endswith(suffixes):
                yield os.path.join(d, f)


DECL = re.compile(r"^(?P<access>(?:public|open|package|internal|fileprivate|private)\s+)?(?:final\s+)?(?:indirect\s+)?"
                  r"(?:struct|enum|class|actor|protocol|typealias)\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)")


def code_only(text):
    """`text` without comments and string-literal contents; the code inside `\\( … )` interpolations is kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text[i] == '"':
            i = skip_string(text, i, out)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def skip_string(text, i, out):
    """Skips the string literal at `i` (plain, multi-line or raw `#"…"#`), appending its interpolations' code."""
    hashes = 0
    while i - hashes - 1 >= 0 and text[i - hashes - 1] == "#":
        hashes += 1
    quote = '"""' if text.startswith('"""', i) else '"'
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    i += len(quote)
    out.append(" ")
    while i < len(text):
        if text.startswith(escape + "(", i):
            i += len(escape) + 1
            depth = 1
            start = i
            while i < len(text) and depth:
                if text[i] == '"':
                    i = skip_string(text, i, out)
                    continue
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            out.append(text[start:i - 1] + " ")
        elif text.startswith(escape, i):
            i += len(escape) + 1
        elif text.startswith(close, i):
            return i + len(close)
        elif text[i] == "\n" and quote == '"':
            return i
        else:
            i += 1
    return i


def dependencies(files, room=None, base=LIB):
    room = room or room_of
    decls, public, total = {}, [], 0
    for p, text in files.items():
        for line in text.splitlines():
            m = DECL.match(line)
            if m:
                total += 1
                decls.setdefault(m.group("name"), room(p))
                if (m.group("access") or "").strip() in ("public", "open"):
                    public.append(m.group("name"))
    edges = collections.defaultdict(lambda: collections.defaultdict(set))  # a -> b -> {(name, file)}
    for p, text in files.items():
        a = room(p)
        code = code_only(text)
        # A name qualified by another module (`KotenOCRCorpus.PageState`) is that module's, not a room's.
        for word in set(re.findall(r"(?<!KotenOCRCorpus\.)\b[A-Z][A-Za-z0-9_]*\b", code)):
            b = decls.get(word)
            if b and b != a:
                edges[a][b].add((word, os.path.relpath(p, base)))
        if base == LIB and a != REGISTRY:
            for found in REGISTRY_MEMBERS.finditer(code):
                edges[a][REGISTRY].add((found.group(1) or found.group(2), os.path.relpath(p, LIB)))
    return edges, public, total


# What the registry adds to types declared elsewhere: `OCRMode.descriptor` and `ResultFormat.supports(_:)`.
REGISTRY_MEMBERS = re.compile(r"(?:[mM]ode|\.(?:ppocr|ndl|koten))\.(descriptor)\b|\.(supports)\(")


def cycles(deps, allowed_pairs=None):
    """Strongly connected groups of rooms, each allowed pair counted as one room (Tarjan's algorithm)."""
    merged = {}
    for a, b in (ALLOWED_PAIRS if allowed_pairs is None else allowed_pairs):
        merged[b] = merged.get(a, a)
    node = lambda r: merged.get(r, r)
    graph = collections.defaultdict(set)
    for a, bs in deps.items():
        for b in bs:
            if node(a) != node(b):
                graph[node(a)].add(node(b))
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(set(graph) | {w for ws in graph.values() for w in ws}):
        if v not in index:
            visit(v)
    return groups


MODE_CASE = re.compile(r"case \.(ppocr|ndl|koten)\b|(\S+)\s*==\s*\.(ppocr|ndl|koten)\b")


def mode_switch_sites():
    """Lines that branch on an `OCRMode` value: `case .ndl` in a switch over something named *mode* (or `self` in
    an `OCRMode` extension), `x == .ndl` where `x` names a mode. (PARSeq's `preprocessing` is not a mode.)"""
    sites = []
    for p in files_under(os.path.join(ROOT, "Sources"), (".swift",)):
        lines = open(p, encoding="utf-8").read().splitlines()
        in_mode_extension = False
        for i, line in enumerate(lines):
            if line.startswith("extension "):
                in_mode_extension = line.startswith("extension OCRMode")
            for m in MODE_CASE.finditer(line):
                if m.group(1):
                    subject = next((s.group(1) for k in range(i, max(-1, i - 40), -1)
                                    for s in [re.search(r"switch\s+(.+?)\s*\{", lines[k])] if s), "")
                    if "mode" in subject.lower() or (subject == "self" and in_mode_extension):
                        sites.append((os.path.relpath(p, ROOT), i + 1))
                        break
                elif "mode" in m.group(2).lower():
                    sites.append((os.path.relpath(p, ROOT), i + 1))
                    break
    return sites


CITE = re.compile(r"docs/([A-Za-z0-9_\-]+\.md)")
STALE = re.compile(r"(?<![/\w-])(reference-pipelines|memory-design|setup-notes|field-notes)(\.md)?\b|/work/shared")
SECTION = re.compile(r"§\s*([0-9]+(?:\.[0-9]+)*)")
PHRASE = re.compile(r"[\"“]([^\"”]{3,80})[\"”]")


# The corpus wing (docs/corpus.md): SQLite behind one seam, the wing beside the library, never in it.
CORPUS_SEAM = {"CSQLite": "Sources/KotenOCRCorpus/SQLite/SQLiteConnection.swift"}
CORPUS_RULES = [("Sources/KotenOCRKit", "KotenOCRCorpus", "the library never depends on the corpus wing"),
                ("Sources/KotenOCRCorpus", "KotenOCRKit", "the corpus wing takes its own input types"),
                ("Sources/KotenOCRCorpus", "KotenOCRServer", "the server calls the corpus wing, not the reverse")]


def corpus_wing():
    """Problems of the corpus wing: a C module imported outside its one seam file, a forbidden import."""
    problems = []
    for p in files_under(os.path.join(ROOT, "Sources"), (".swift",)):
        rel = os.path.relpath(p, ROOT)
        imports = set(re.findall(r"^(?:@testable\s+)?import\s+(\w+)", open(p, encoding="utf-8").read(), re.M))
        for module, seam in CORPUS_SEAM.items():
            if module in imports and rel != seam:
                problems.append(f"{rel} imports {module} (only {seam} may)")
        for folder, module, why in CORPUS_RULES:
            if rel.startswith(folder + "/") and module in imports:
                problems.append(f"{rel} imports {module}: {why}")
    return problems


def normalised(s):
    return re.sub(r"\s+", " ", s).strip().lower()


def citations():
    docs = {}
    for p in files_under(os.path.join(ROOT, "docs"), (".md",)):
        text = open(p, encoding="utf-8").read()
        docs[os.path.relpath(p, os.path.join(ROOT, "docs"))] = (
            set(re.findall(r"^#+\s*§?\s*([0-9]+(?:\.[0-9]+)*)[\s.]", text, flags=re.M)), normalised(text))
    count, unresolved = 0, []
    sources = [p for base in ("Sources", "Tests", "scripts") for p in
               files_under(os.path.join(ROOT, base), (".swift", ".py", ".c", ".h", ".sh"))]
    sources += [os.path.join(ROOT, f) for f in ("README.md", "Makefile")]
    for p in sources:
        where = os.path.relpath(p, ROOT)
        for i, line in enumerate(open(p, encoding="utf-8", errors="replace"), 1):
            for m in CITE.finditer(line):
                count += 1
                doc = m.group(1)
                if doc not in docs:
                    unresolved.append(f"{where}:{i}: docs/{doc} does not exist")
                    continue
                headings, text = docs[doc]
                clause = re.split(r"[;()]|README|docs/|\bNDL\b|\bkoten `", line[m.end():], maxsplit=1)[0]
                for sec in SECTION.findall(clause):
                    if sec not in headings:
                        unresolved.append(f"{where}:{i}: docs/{doc} has no §{sec}")
                for phrase in PHRASE.findall(clause):
                    if normalised(phrase) not in text:
                        unresolved.append(f'{where}:{i}: docs/{doc} does not say "{phrase}"')
            if where != "scripts/architecture-check.py" and STALE.search(line):
                count += 1
                unresolved.append(f"{where}:{i}: cites a document outside the repository")
    return count, unresolved


def facade():
    """The public types docs/architecture.md lists under "The public surface" (backquoted names): the top-level
    ones (second column) and the nested ones, `Owner.Name` (third column)."""
    text = open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8").read()
    section = text.split("## The public surface", 1)[-1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("|") and line.count("|") >= 3]
    top = set(re.findall(r"`([A-Z][A-Za-z0-9]+)`", " ".join(r[2] for r in rows)))
    nested = set(re.findall(r"`([A-Z][A-Za-z0-9]+\.[A-Z][A-Za-z0-9]+)`", " ".join(r[3] for r in rows if len(r) > 4)))
    return top, nested


NESTED = re.compile(r"^\s+(?:public|open)\s+(?:final\s+)?(?:indirect\s+)?(?:struct|enum|class|actor|protocol)\s+"
                    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)")
OWNER = re.compile(r"^(?:(?:public|open|package|internal)\s+)?(?:final\s+)?(?:indirect\s+)?"
                   r"(?:extension|struct|enum|class|actor)\s+(?P<name>[A-Za-z_][A-Za-z0-9_.]*)")


def nested_public(files):
    """`Owner.Name` for every public type declared one level inside a top-level type or extension."""
    found = set()
    for text in files.values():
        owner = None
        for line in text.splitlines():
            m = OWNER.match(line)
            if m:
                owner = m.group("name")
            elif line.startswith("}"):
                owner = None
            elif owner and line.startswith("    ") and not line.startswith("     "):
                n = NESTED.match(line)
                if n:
                    found.add(f"{owner}.{n.group('name')}")
    return found


# ---- the wings beside the library: the server (Sources/KotenOCRServer) and IIIF (Sources/KotenOCRIIIF) ----------
SERVER = os.path.join(ROOT, "Sources", "KotenOCRServer")
IIIF = os.path.join(ROOT, "Sources", "KotenOCRIIIF")
# The server's floor plan (docs/architecture.md, "The server wing"): the rooms each room may use. The files directly
# in Sources/KotenOCRServer (`(root)`: the options, random ids) use none of them.
SERVER_MAY_USE = {
    "(root)": set(),
    "HTTP": {"(root)"},
    "Limits": set(),
    "Jobs": {"Limits", "Corpus", "(root)"},
    "Corpus": set(),
    "WebApp": set(),
    "API": {"HTTP", "Jobs", "Limits", "Corpus", "WebApp", "(root)"},
}
# The HTTP request and response types: named only by HTTP/ (which declares them) and API/.
HTTP_TYPES = ("HTTPRequest", "HTTPResponse", "HTTPUpload", "HTTPRefusal", "HTTPHandler")
HTTP_ROOMS = {"HTTP", "API"}
# The C libraries behind one seam each: the only files that import them.
SEAMS = {
    "CMicroHTTPDShim": {"Sources/KotenOCRServer/HTTP/MicroHTTPDServer.swift"},
    "CMicroHTTPD": set(),
    "CLibZip": {"Sources/KotenOCRServer/Jobs/ZipArchive.swift"},
    "CCurlShim": {"Sources/KotenOCRIIIF/HTTPClient.swift"},
    "CCurl": set(),
}
# The server rooms that may import the corpus wing: Corpus/ holds the one CorpusStore and makes every call on it; API/
# names its page, edit and search types in answers.
CORPUS_ROOMS = {"Corpus", "API"}
# Which target may import which of this package's others.
TARGET_MAY_IMPORT = {
    "KotenOCRKit": set(),
    "KotenOCRIIIF": {"KotenOCRKit"},
    "KotenOCRServer": {"KotenOCRKit", "KotenOCRIIIF", "KotenOCRCorpus"},
}


def server_room(path):
    parts = os.path.relpath(path, SERVER).split(os.sep)
    return "(root)" if len(parts) == 1 else parts[0]


def wings():
    """The server's rooms, what each uses and names, and the imports of the server, IIIF and library targets.
    Returns the lines to print and the number of violations."""
    out, bad = [], 0
    files = {p: open(p, encoding="utf-8").read() for p in files_under(SERVER, (".swift",))}
    edges, _, total = dependencies(files, server_room, SERVER)
    rooms = sorted({server_room(p) for p in files})
    out.append(f"server rooms: {', '.join(rooms)} ({total} declarations in {len(files)} files)")
    for a in rooms:
        uses = sorted(edges.get(a, {}))
        out.append(f"  {a} uses {', '.join(uses) if uses else 'no other room'}")
    problems = []
    for a in rooms:
        if a not in SERVER_MAY_USE:
            problems.append(f'{a} is no room of the plan (docs/architecture.md, "The server wing")')
            continue
        for b, names in sorted(edges.get(a, {}).items()):
            if b not in SERVER_MAY_USE[a]:
                problems.append(f"{a} -> {b}: not in the plan ({', '.join(sorted({w for w, _ in names})[:5])})")
    for p, text in files.items():
        room = server_room(p)
        if room in HTTP_ROOMS:
            continue
        named = sorted(set(re.findall(r"\b(" + "|".join(HTTP_TYPES) + r")\b", code_only(text))))
        if named:
            problems.append(f"{os.path.relpath(p, ROOT)} names {', '.join(named)}: only API/ names the HTTP request and response types")
    for group in cycles({a: set(bs) for a, bs in edges.items()}, allowed_pairs={}):
        problems.append(f"cycle between {', '.join(group)}")
    iiif = {p: open(p, encoding="utf-8").read() for p in files_under(IIIF, (".swift",))}
    out.append(f"IIIF wing: {len(iiif)} files")
    library = {p: open(p, encoding="utf-8").read() for p in files_under(LIB, (".swift",))}
    imports = collections.defaultdict(set)
    for target, group in (("KotenOCRServer", files), ("KotenOCRIIIF", iiif), ("KotenOCRKit", library)):
        for p, text in group.items():
            for module in re.findall(r"^(?:@testable\s+)?import\s+(\w+)", text, flags=re.M):
                where = os.path.relpath(p, ROOT)
                imports[module].add(where)
                if target == "KotenOCRServer" and module == "KotenOCRCorpus" and server_room(p) not in CORPUS_ROOMS:
                    problems.append(f"{where} imports KotenOCRCorpus: only the server's {', '.join(sorted(CORPUS_ROOMS))} rooms may")
                if module in TARGET_MAY_IMPORT and module != target and module not in TARGET_MAY_IMPORT[target]:
                    problems.append(f"{where} imports {module}: {target} may import only {', '.join(sorted(TARGET_MAY_IMPORT[target])) or 'none of them'}")
    for module, allowed in SEAMS.items():
        for where in sorted(imports.get(module, set()) - allowed):
            problems.append(f"{where} imports {module}: only {', '.join(sorted(allowed)) or 'its shim'} may (one seam per C library)")
    out.append(f"server and IIIF rule breaks: {len(problems)}")
    out += [f"  {p}" for p in problems]
    return out, len(problems)


def main():
    files = {p: open(p, encoding="utf-8").read() for p in files_under(LIB, (".swift",))}
    edges, public, total = dependencies(files)
    deps = {a: set(bs) for a, bs in edges.items()}
    pairs = [(a, b) for a in sorted(deps) for b in sorted(deps[a]) if a < b and a in deps.get(b, set())]
    bad = [(a, b, forbidden(a, b)) for a in sorted(deps) for b in sorted(deps[a]) if forbidden(a, b)]
    loops = cycles(deps)
    switch = mode_switch_sites()
    cites, unresolved = citations()

    allowed, listed_nested = facade()
    outside = sorted(set(public) - allowed)
    print(f"public top-level types: {len(public)} of {total} (façade in docs/architecture.md: {len(allowed)})")
    for name in outside:
        print(f"  {name} is public but not in the façade (make it package, or add it to the façade)")
    missing = sorted(listed_nested - nested_public(files))
    print(f"public nested types the façade names: {len(listed_nested)}, declared: {len(listed_nested) - len(missing)}")
    for name in missing:
        print(f"  {name} is in the façade but the library declares no public {name}")
    print(f"two-way folder pairs: {len(pairs)}")
    for a, b in pairs:
        why = ALLOWED_PAIRS.get((a, b)) or ALLOWED_PAIRS.get((b, a))
        print(f"  {a} <-> {b}" + (f" (allowed: {why})" if why else ""))
    print(f"forbidden dependencies: {len(bad) + len(loops)}")
    for a, b, why in bad:
        names = sorted({w for w, _ in edges[a][b]})[:5]
        print(f"  {a} -> {b}: {why} ({', '.join(names)})")
    for group in loops:
        print(f"  cycle between {', '.join(group)} (rooms must depend one way; see --edges)")
    registry = [s for s in switch if s[0].startswith("Sources/KotenOCRKit/Modes/") and s[0].count("/") == 3]
    print(f"mode switch sites: {len(switch)} ({len(registry)} in the registry)")
    for path, line in switch:
        if (path, line) not in registry:
            print(f"  {path}:{line}")
    corpus = corpus_wing()
    print(f"corpus wing: SQLite named by 1 file, forbidden imports: {len(corpus)}")
    for c in corpus:
        print(f"  {c}")
    print(f"doc citations: {cites}, resolved: {cites - len(unresolved)}")
    for u in unresolved:
        print(f"  {u}")
    wing_lines, wing_bad = wings()
    for line in wing_lines:
        print(line)
    if "-v" in sys.argv:
        print("public types:", ", ".join(sorted(public)))
    if "--edges" in sys.argv:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"{a} -> {b}: " + ", ".join(sorted(f"{w} ({os.path.basename(f)})" for w, f in edges[a][b])))
    return 1 if unresolved or bad or loops or outside or missing or corpus or wing_bad else 0


sys.exit(main())
