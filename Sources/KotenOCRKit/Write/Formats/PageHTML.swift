import Foundation

/// `html` (`<stem>.html`): one self-contained page — the page image embedded as a data URI (a JPEG, PNG, WebP or
/// GIF file as it is when it needs no turn, EXIF or `PageResult.rotation`, otherwise the upright page as JPEG),
/// each line's text laid over
/// the line (transparent, selectable, found by the browser's search; vertical lines in `writing-mode:
/// vertical-rl`; a tilted line's overlay turned to the line's angle, `Placement`, issue 25; fitted to the line by a
/// few lines of script), and beside it the lines in reading
/// order with characters below `lowConfidence` marked. Ruby lines are outlined but carry no text. Written as
/// text: HTML is not XML, so Foundation's XML tree does not serialise it. docs/formats.md, "html".
enum PageHTML {
    /// Characters whose probability is below this are marked (`<mark class="low">`).
    static let lowConfidence: Float = 0.5

    static func document(_ page: PageResult, image given: ImageSource) throws -> Data {
        let image = page.shownImage(given)
        let (width, height) = (page.source.width, page.source.height)
        let name = title(page)
        let lines = page.formatLines
        var overlay = "", list = ""
        for line in lines {
            let b = line.box
            func percent(_ value: Double, of total: Int) -> String { FormatNumber.decimal(100 * value / Double(max(1, total))) }
            let place = Placement(line)
            let classes = "line " + (line.isVertical ? "v" : "h") + (line.line.kind == "ruby" ? " ruby" : "")
            let text = line.line.kind == "ruby" ? "" : marked(line)
            let turn = place.degrees == 0 ? "" : "transform:rotate(\(FormatNumber.decimal(place.degrees, digits: 2))deg);"
            overlay += "<div class=\"\(classes)\" id=\"\(line.id)\" data-box=\"\(b.x) \(b.y) \(b.width) \(b.height)\" "
                + "style=\"left:\(percent(place.left, of: width))%;top:\(percent(place.top, of: height))%;"
                + "width:\(percent(place.width, of: width))%;height:\(percent(place.height, of: height))%;\(turn)"
                + "--size:\(percent(place.thickness, of: width))\">"
                + "<span class=\"text\">\(text)</span></div>\n"
            let confidence = line.line.confidence.map { " <small>\(Int((Double($0) * 100).rounded()))%</small>" } ?? ""
            list += "<li value=\"\(line.number)\" class=\"\(line.isVertical ? "v" : "h")\"><a href=\"#\(line.id)\">"
                + marked(line) + "</a>\(confidence)</li>\n"
        }
        let html = """
        <!DOCTYPE html>
        <html lang="ja">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="KotenOCR \(EngineVersion.current)">
        <title>\(escape(name)) — KotenOCR</title>
        <style>
        \(style)
        #page{width:min(100%,\(width)px);aspect-ratio:\(width)/\(height)}
        </style>
        </head>
        <body>
        <main>
        <figure id="page" data-width="\(width)" data-height="\(height)">
        <img src="\(try imageURI(image))" alt="\(escape(name))" width="\(width)" height="\(height)">
        \(overlay)</figure>
        <aside>
        <h1>\(escape(name))</h1>
        \(sourceLinks(page))        <p>\(escape(page.mode.rawValue)) · page \(page.source.page) of \(page.source.pageCount) · \(lines.count) lines · \
        <mark class="low">marked</mark>: probability below \(FormatNumber.decimal(Double(lowConfidence)))</p>
        <ol id="lines">
        \(list)</ol>
        </aside>
        </main>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
        return Data(html.utf8)
    }

    /// The page's name: a IIIF canvas's label and its book's (`source.iiif`), else the source's file name (an
    /// image's path or address, or the name an upload was given), with the page of a multi-page file.
    static func title(_ page: PageResult) -> String {
        if let iiif = page.source.iiif, iiif.image != nil {
            let canvas = iiif.canvasLabel ?? "canvas \(iiif.canvasIndex)"
            return iiif.label.map { "\(canvas) — \($0)" } ?? canvas
        }
        let file = (page.source.path as NSString).lastPathComponent
        return page.source.pageCount > 1 ? "\(file) (page \(page.source.page))" : file
    }

    /// For a IIIF canvas, its image's address (`source.path`, the pixels read) and the canvas's id as links, one
    /// line each, under the title; nothing for a local file.
    static func sourceLinks(_ page: PageResult) -> String {
        guard let iiif = page.source.iiif, iiif.image != nil else { return "" }
        func link(_ what: String, _ address: String) -> String {
            "\(what) <a class=\"source\" href=\"\(escape(address))\">\(escape(address))</a>"
        }
        return "<p class=\"source\">" + link("image", page.source.path) + "<br>" + link("canvas", iiif.canvas) + "</p>\n"
    }

    /// Where a line's overlay goes (page pixels): the line's own rectangle, level, centred where the line is, and
    /// the angle that turns it onto the line (CSS `rotate`, clockwise on the page). A horizontal line runs from its
    /// outline's corner 0 to 1 (and 3 to 2), a vertical one from 0 to 3 (and 1 to 2): its angle is that of its
    /// reading direction from the page's (right, or down). An outline that is the box itself, or not four corners,
    /// is the box, level.
    struct Placement: Equatable {
        var left, top, width, height: Double
        /// Clockwise degrees; 0 for a level line.
        var degrees: Double
        /// Across the line (its height when horizontal, width when vertical): what the text's size follows.
        var thickness: Double

        init(_ line: FormatLine) {
            let b = line.box
            let c = line.corners
            guard c.count == 4, !line.outlineIsBox else {
                (left, top, width, height, degrees) = (Double(b.x), Double(b.y), Double(b.width), Double(b.height), 0)
                thickness = Double(line.isVertical ? b.width : b.height)
                return
            }
            func distance(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double)) -> Double { hypot(q.x - p.x, q.y - p.y) }
            // Along the reading direction: the mean of the outline's two long sides, and its direction.
            let (start, end, otherStart, otherEnd) = line.isVertical ? (c[0], c[3], c[1], c[2]) : (c[0], c[1], c[3], c[2])
            let along = (distance(start, end) + distance(otherStart, otherEnd)) / 2
            let across = (distance(start, otherStart) + distance(end, otherEnd)) / 2
            let dx = end.x - start.x + otherEnd.x - otherStart.x, dy = end.y - start.y + otherEnd.y - otherStart.y
            var angle = atan2(dy, dx) * 180 / .pi - (line.isVertical ? 90 : 0)
            angle = angle > 180 ? angle - 360 : angle < -180 ? angle + 360 : angle
            let centre = (x: c.map(\.x).reduce(0, +) / 4, y: c.map(\.y).reduce(0, +) / 4)
            let (w, h) = line.isVertical ? (across, along) : (along, across)
            (left, top, width, height) = (centre.x - w / 2, centre.y - h / 2, w, h)
            degrees = abs(angle) < 0.05 ? 0 : angle
            thickness = across
        }
    }

    /// The line's text, HTML-escaped, with each character below `lowConfidence` in `<mark class="low">`.
    private static func marked(_ line: FormatLine) -> String {
        guard let characters = line.characters else { return escape(line.line.text) }
        return characters.map { c in
            c.confidence < lowConfidence ? "<mark class=\"low\" title=\"\(Int((Double(c.confidence) * 100).rounded()))%\">"
                + escape(c.text) + "</mark>" : escape(c.text)
        }.joined()
    }

    /// The page image as a data URI.
    private static func imageURI(_ image: ImageSource) throws -> String {
        let types = ["jpegload": "image/jpeg", "pngload": "image/png", "webpload": "image/webp", "gifload": "image/gif"]
        if image.orientation == 1, image.bytesShowUpright, let type = types[image.loader], let bytes = try image.sourceBytes() {
            return "data:\(type);base64," + bytes.base64EncodedString()
        }
        return "data:image/jpeg;base64," + (try image.encodedDisplay(.jpeg(quality: 90))).base64EncodedString()
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    private static let style = """
    body{margin:0;font-family:"Noto Sans CJK JP","Hiragino Sans",sans-serif;background:#eee;color:#222}
    main{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start;padding:1rem}
    #page{position:relative;margin:0;flex:0 1 auto;container-type:inline-size;background:#fff;box-shadow:0 0 4px #888}
    #page img{display:block;width:100%;height:100%}
    .line{position:absolute;margin:0;white-space:nowrap;line-height:normal;color:transparent;font-size:calc(var(--size)*1cqw)}
    .line.v{writing-mode:vertical-rl}
    .line .text{position:absolute;left:0;top:0;transform-origin:0 0}
    .line ::selection{background:rgba(0,114,178,.35);color:transparent}
    #page:hover .line{outline:1px solid rgba(0,114,178,.45)}
    #page:hover .line.v{outline-color:rgba(213,94,0,.45)}
    .line:target{outline:2px solid #d55e00}
    .line mark.low{background:none;color:transparent;text-decoration:underline wavy rgba(213,94,0,.8) .06em}
    aside{flex:1 1 20rem;min-width:16rem;max-height:calc(100vh - 2rem);overflow:auto;background:#fff;padding:0 1rem}
    aside h1{font-size:1.1rem;word-break:break-all}
    aside a{color:inherit;text-decoration:none}
    aside p.source{font-size:.8rem;word-break:break-all}
    aside a.source{color:#0072b2}
    aside li.v::marker{color:#d55e00}
    aside li.h::marker{color:#0072b2}
    mark.low{background:#ffd54f;color:inherit}
    small{color:#777}
    """

    /// Scales each line's text to fill its box (the scale does not change when the page is resized: every size
    /// is relative to the page's width).
    private static let script = """
    for (const line of document.querySelectorAll("#page .line")) {
      const text = line.firstElementChild;
      if (text.offsetWidth > 0 && text.offsetHeight > 0) {
        text.style.transform = "scale(" + line.clientWidth / text.offsetWidth + "," + line.clientHeight / text.offsetHeight + ")";
      }
    }
    """
}
