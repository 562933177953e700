import Foundation
import Testing

/// Debian's Chromium, headless, for the html format: where each line's text is laid out, and screenshots.
enum HeadlessBrowser {
    struct Rect: Decodable, CustomStringConvertible {
        let left, top, right, bottom: Double
        var description: String { "(\(Int(left)), \(Int(top)))–(\(Int(right)), \(Int(bottom)))" }
    }

    /// One line of the page as the browser lays it out: its box (from `data-box`, in CSS pixels), where its text
    /// is (the range of its text), the element found at the box's middle, and its text; and where each of its
    /// characters is selected (the bounding rectangle of a range over that character, in page pixels: what a
    /// selection or a search highlights).
    struct Line: Decodable {
        let id: String
        let text: String
        let box: Rect
        let textRect: Rect
        let hit: String?
        let characters: [Rect]
    }

    private static let probe = """
    <script>
    window.addEventListener("load", () => {
      const page = document.getElementById("page");
      const lines = [...document.querySelectorAll("#page .line")].map(line => {
        line.scrollIntoView({block: "center", inline: "center"});  // elementFromPoint sees the viewport only
        const image = page.querySelector("img").getBoundingClientRect();
        const scale = image.width / Number(page.dataset.width);
        const [x, y, w, h] = line.dataset.box.split(" ").map(Number);
        const box = {left: image.left + x * scale, top: image.top + y * scale,
                     right: image.left + (x + w) * scale, bottom: image.top + (y + h) * scale};
        const range = document.createRange();
        range.selectNodeContents(line.querySelector(".text"));
        const r = range.getBoundingClientRect();
        const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
        const characters = [];
        const walker = document.createTreeWalker(line.querySelector(".text"), NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.length; i++) {
            const one = document.createRange();
            one.setStart(node, i);
            one.setEnd(node, i + 1);
            const c = one.getBoundingClientRect();
            characters.push({left: (c.left - image.left) / scale, top: (c.top - image.top) / scale,
                             right: (c.right - image.left) / scale, bottom: (c.bottom - image.top) / scale});
          }
        }
        return {id: line.id, text: range.toString(), box, characters,
                textRect: {left: r.left, top: r.top, right: r.right, bottom: r.bottom},
                hit: hit && hit.closest(".line") ? hit.closest(".line").id : null};
      });
      const out = document.createElement("pre");
      out.id = "koten-probe";
      out.textContent = JSON.stringify(lines);
      document.body.appendChild(out);
    });
    </script>
    """

    private static func chromium(_ arguments: [String]) throws -> ProcessResult {
        let profile = try TestPaths.temporaryDirectory("chromium-profile")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try FormatCheckers.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                   "--user-data-dir=\(profile.path)", "--window-size=1400,1000",
                                                   "--virtual-time-budget=5000"] + arguments)
    }

    /// The lines of the html page `file` as Chromium lays them out (a copy with a probe script appended is opened).
    static func lines(of file: URL) throws -> [Line] {
        let copy = try TestPaths.temporaryDirectory("html-probe").appendingPathComponent("page.html")
        var data = try Data(contentsOf: file)
        data.append(Data(probe.utf8))
        try data.write(to: copy)
        let result = try chromium(["--dump-dom", copy.absoluteString])
        guard let start = result.stdout.range(of: "<pre id=\"koten-probe\">"),
              let end = result.stdout.range(of: "</pre>", range: start.upperBound..<result.stdout.endIndex) else {
            Issue.record("Chromium gave no layout for \(file.path): \(result.stderr.suffix(500))")
            return []
        }
        let json = String(result.stdout[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode([Line].self, from: Data(json.utf8))
    }

    /// Selects the text laid over the page (`#page`), as a reader dragging across it would.
    private static let selectPage = """
    <script>
    window.addEventListener("load", () => {
      const texts = document.querySelectorAll("#page .line .text");
      if (texts.length === 0) return;
      const range = document.createRange();  // from the first line's text to the last's: not the image before them
      range.setStartBefore(texts[0]);
      range.setEndAfter(texts[texts.length - 1]);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    });
    </script>
    """

    /// A screenshot of `file` (1400×1000 CSS pixels) written to `png`; with `selectingText`, of a copy in which the
    /// text over the page is selected (the selection's colour shows where it lies).
    static func screenshot(of file: URL, to png: URL, selectingText: Bool = false) throws {
        var page = file
        if selectingText {
            page = try TestPaths.temporaryDirectory("html-selected").appendingPathComponent("page.html")
            var data = try Data(contentsOf: file)
            data.append(Data(selectPage.utf8))
            try data.write(to: page)
        }
        let result = try chromium(["--screenshot=\(png.path)", page.absoluteString])
        try #require(FileManager.default.fileExists(atPath: png.path), "no screenshot: \(result.stderr.suffix(500))")
    }
}
