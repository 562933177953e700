import Foundation
import KotenOCRIIIF
import KotenOCRKit

/// Command-line options of `koten-ocr`. The engine's (mode, models, budget, reading order, …) are `EngineOptions`,
/// read with the vocabulary `koten-ocr serve` and the HTTP API share (`OptionVocabulary`).
struct Arguments {
    var inputs: [String] = []
    var engine = EngineOptions()
    var output: String?
    var formats: [ResultFormat] = []
    var ruby = ResultFormat.RubyStyle.drop
    var recursive = false
    var inputList: String?
    var pages: PageSelection?
    var resume = false
    var overwrite = false
    var shard: Shard?
    var quiet = false
    var showHelp = false
    var showVersion = false
    /// `--diagnostics FILE`: also write this run's diagnostics payload to FILE; `--no-diagnostics`: collect none.
    var diagnosticsFile: String?
    var diagnostics = true
    /// `--iiif-size`: the size of each canvas's image (docs/iiif.md).
    var iiifSize = IIIFImageSize.longSide(IIIFImageSize.defaultLongSide)
    /// `--iiif-base URL`: where the output folder is served (the ids of `--format iiif`'s documents).
    var iiifBase: URL?
    /// `--network-timeout S`: seconds without a byte before a download is abandoned.
    var networkTimeout = 30

    var mode: OCRMode? { engine.mode }
    var models: String? { engine.models }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `args` (without the program name). Throws `UsageError` with a one-line reason.
    static func parse(_ args: [String]) throws -> Arguments {
        do {
            return try read(args)
        } catch let error as OptionError {
            throw UsageError(description: error.description)
        }
    }

    private static func read(_ args: [String]) throws -> Arguments {
        var a = Arguments()
        var reader = ArgumentReader(args)
        var onlyInputs = false
        while let arg = reader.next() {
            if onlyInputs || !arg.hasPrefix("-") || arg == "-" {
                a.inputs.append(reader.raw)
                continue
            }
            if try a.engine.take(&reader) { continue }
            switch arg {
            case "--": onlyInputs = true
            case "-h", "--help": a.showHelp = true
            case "--version": a.showVersion = true
            case "-o", "--output": a.output = try reader.value()
            case "-f", "--format":
                let format = OptionVocabulary.format(among: ResultFormat.allCases)
                for name in try reader.value().split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
                    let f = try format.parse(name, flag: arg)
                    if !a.formats.contains(f) { a.formats.append(f) }
                }
            case "--ruby": a.ruby = try reader.value(OptionVocabulary.ruby)
            case "-r", "--recursive": a.recursive = true
            case "--input-list": a.inputList = try reader.value()
            case "--pages":
                do { a.pages = try PageSelection(parsing: try reader.value()) } catch let e as PageSelection.ParseError {
                    throw UsageError(description: e.description)
                }
            case "--resume": a.resume = true
            case "--overwrite": a.overwrite = true
            case "--shard":
                do { a.shard = try Shard(parsing: try reader.value()) } catch let e as Shard.ParseError {
                    throw UsageError(description: e.description)
                }
            case "--iiif-size":
                let v = try reader.value()
                guard let size = IIIFImageSize(parsing: v) else {
                    throw UsageError(description: "--iiif-size must be max, full or a longer side in pixels (≥ 64), not '\(v)'")
                }
                a.iiifSize = size
            case "--iiif-base":
                let v = try reader.value()
                guard let url = URL(string: v.hasSuffix("/") ? v : v + "/"), let scheme = url.scheme?.lowercased(),
                      ["http", "https", "file"].contains(scheme) else {
                    throw UsageError(description: "--iiif-base needs an http, https or file URL, not '\(v)'")
                }
                a.iiifBase = url
            case "--network-timeout": a.networkTimeout = try reader.value(OptionVocabulary.wholeNumber("network-timeout"))
            case "-q", "--quiet": a.quiet = true
            case "--diagnostics": a.diagnosticsFile = try reader.value()
            case "--no-diagnostics": a.diagnostics = false
            default: throw UsageError(description: "unknown option \(arg) (see --help)")
            }
        }
        if !a.showHelp && !a.showVersion {
            if a.inputs.isEmpty && a.inputList == nil { throw UsageError(description: "no input given (see --help)") }
            if a.output == nil && a.resume {
                throw UsageError(description: "--resume needs --output DIR (results on standard output are never resumed)")
            }
            if a.output == nil && a.overwrite {
                throw UsageError(description: "--overwrite needs --output DIR (standard output overwrites nothing)")
            }
            if let file = a.diagnosticsFile {
                let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
                    throw UsageError(description: "--diagnostics \(file): no such folder \(folder)")
                }
            }
        }
        return a
    }

    static let help = """
    Usage: koten-ocr [options] <image|pdf|directory|IIIF manifest URL or .json>...
           koten-ocr [options] -                      (one image read from standard input, results to stdout)
           koten-ocr diagnostics [show ID] [--json]   (see koten-ocr diagnostics --help)
           koten-ocr models [list | verify DIR | install --mode MODE SOURCE]   (see koten-ocr models --help)
           koten-ocr serve [options]                  (the web app and HTTP API; see koten-ocr serve --help)

    OCR for Japanese classical books and modern print. Reads each page and writes its text to standard
    output, or with --output writes <stem>.txt and <stem>.json (and <stem>.xml in the ndl and koten modes)
    per page into a folder (<stem>_p0001.* for the pages of a PDF or multi-page TIFF; a directory's
    subfolders are mirrored).

    Options:
      -m, --mode MODE          koten, ndl or ppocr (default: koten when its models are installed, else ppocr;
                               with --models, the first of koten, ppocr, ndl found there)
          --models DIR         model folder (default: $KOTEN_OCR_MODELS, ~/.local/share/koten-ocr/models,
                               ./.deps/models); holds ppocr/, ndl/, koten/ or one mode's files
      -o, --output DIR         write results into DIR (created if missing) instead of standard output
      -f, --format LIST        comma-separated (default: txt to stdout; txt,json with --output, plus xml for
                               ndl and koten); one example each:
                                 txt       <stem>.txt    the text, lines in reading order
                                 json      <stem>.json   lines, boxes, confidences (docs/json-schema.md)
                                 alto      <stem>.alto.xml   ALTO 4.3 for library systems
                                 page      <stem>.page.xml   PAGE XML 2019 for transcription tools
                                 hocr      <stem>.hocr   hOCR 1.2, as Tesseract writes it
                                 pdf       <stem>.pdf    searchable PDF, one per input (all its pages)
                                 viz       <stem>.viz.png (.jpg for JPEG input)   the lines drawn
                                 html      <stem>.html   the page with selectable text over it
                                 xml       <stem>.xml    NDL XML (ndl, koten)
                                 ndl-json  <stem>.ndl.json   NDL's JSON (ndl, koten)
                                 tei       <first-stem>_tei.xml   koten's TEI, one for the run
                                 iiif      <stem>.annotations.json   W3C annotations for IIIF viewers,
                                           and manifest.json referencing them (docs/iiif.md)
                               pdf, viz and iiif are files: they need --output
          --memory-budget SIZE memory budget for the process, e.g. 200MB (default: cgroup limit or RAM)
      -j, --jobs N             most model runs in flight at once (default: the usable CPUs, at most 4)
          --max-pixels N       refuse images with more pixels (default 200000000)
          --det-max-side N     ppocr: read each page once with the detector's map N on its longer side
                               (at most 4096; larger than one run can take: in tiles). Default: fitted
                               to the page: 960, then finer where the text is too thin (strips, tall
                               pages, small print), in tiles within the memory budget
          --no-orientation-classifier
                               ppocr: skip the 0°/180° line classifier (no votes: pages are then not found
                               upside down)
          --no-second-look     ppocr: read each line once, in its detector box (by default a line read
                               with a confidence under 0.95 is cut again with a margin and read again,
                               the more confident reading kept)
          --no-vertical-punctuation
                               ppocr: take vertical lines as the recogniser reads them (by default their
                               、, 。 and ー, which it passes over, are found in the lines' pixels)
          --min-line-confidence X
                               ppocr: lines read with a confidence under X (0 to 1, default 0.5) are left
                               out of every format but json, where they are flagged "lowConfidence";
                               0 keeps every line
          --reading-order ORDER
                               page (default): in the page's own frame: skew undone, turned pages read
                               upright, horizontal lines top to bottom, vertical lines right to left;
                               ndl: NDL's reading order exactly (ndl, koten: as NDL's code writes it)
          --page-rotation R    auto (default), 0, 90, 180 or 270: how the pages are turned clockwise from
                               upright (auto: ppocr tells from each page, ndl and koten read pages as given);
                               coordinates are reported in the upright page
          --ruby STYLE         how txt shows ruby (furigana), ppocr: drop (default: left out), separate
                               (after the body: base<TAB>reading per ruby), inline (Aozora Bunko: 漢字《かんじ》)
      -r, --recursive          read directories' subfolders too (hidden files and folders are skipped)
          --input-list FILE    read input paths from FILE, one per line ('-' = standard input;
                               blank lines and lines starting with # are ignored; a relative path
                               keeps its folders in --output, e.g. vol1/0001.jpg -> vol1/0001.txt)
          --pages LIST         pages of each input, 1-based, e.g. 1-10,15 or 3- (a page past an
                               input's end is an error, for a single image as for a TIFF)
          --pdf-dpi N          render PDF pages at N dots per inch (default 300)
          --resume             skip pages an earlier run into --output finished (results checked
                               against the manifest's SHA-256); redo the rest
          --overwrite          replace result files already in --output
          --shard K/N          read only shard K of N (1 ≤ K ≤ N): N processes with the same inputs
                               read every page exactly once (docs/cluster.md)
          --accept-damaged-images
                               read images whose data is damaged (by default a decoder warning fails the page)
          --iiif-size SIZE     a IIIF manifest's canvases are read at this size: max (or full), or N, the
                               longer side in pixels (default 3840; a level-0 server's nearest listed size)
          --iiif-base URL      where --output will be served: the ids of --format iiif's annotation pages
                               and manifest.json (default: the output folder's file:// URL)
          --network-timeout S  abandon a download that receives nothing for S seconds (default 30)
      -q, --quiet              no progress display and no summary line: errors only
          --diagnostics FILE   also write this run's diagnostics payload (JSON) to FILE
          --no-diagnostics     collect no diagnostics (no run marker, crash record or payload)
          --no-model-cache     keep no optimised copy of the models (by default each model's optimised form is
                               kept in $KOTEN_OCR_CACHE_DIR/optimised-models, else $XDG_CACHE_HOME/koten-ocr/...,
                               else ~/.cache/koten-ocr/..., and loads in about half the time; nothing is written
                               under --memory-budget below the machine's memory; docs/performance.md)
      -h, --help               this help
          --version            version of koten-ocr and ONNX Runtime

    Examples:
      koten-ocr -o out/ -f pdf book.tif            out/book.pdf: every page of book.tif, searchable
      koten-ocr -o out/ -f alto,page,hocr scans/   out/<stem>.alto.xml, .page.xml, .hocr per page
      koten-ocr -o out/ -f viz,html page.jpg       out/page.viz.jpg (the lines drawn), out/page.html
      koten-ocr -f html page.jpg > page.html       one self-contained page, to standard output
      koten-ocr -o out/ -f txt,json,iiif https://example.org/iiif/book/manifest.json
                                                   out/book/0001_<label>.txt, ... and out/book/manifest.json

    Results are written to a temporary file and renamed, and recorded in --output's batch manifest
    (.koten-ocr-manifest*.jsonl), so a killed run continues with --resume. A result file that exists
    and is not this batch's is never replaced without --overwrite.

    A page in which no line is found is not an error: standard error gets one line naming it at the end.

    PAGE XML's Created is when each page is read; $SOURCE_DATE_EPOCH (seconds) fixes it, for identical bytes.

    Exit status: 0 every page read; 1 some inputs or pages failed (each named on standard error; the
    others are still processed); 2 usage error (including two inputs writing the same result, or
    results in the way), nothing read.
    """
}
