import Foundation

/// Writes a PDF 1.7 file object by object to a sink: the catalog, then each page's objects as it is added, then
/// the page tree, the document information, the cross-reference table and the trailer. Objects: 1 catalog, 2 page
/// tree, 3 document information (written last: it takes the first page's `info`), then ten per page (page,
/// content stream, image, the ToUnicode CMap, and for each of the horizontal and the vertical font its Type0 font,
/// CIDFont and font descriptor). The fonts are not embedded: the text is never drawn (render mode 3), and readers
/// take its Unicode from the ToUnicode CMap and its advances from `/DW` and `/DW2` (`PDFTextLayer` says how the
/// glyphs sit).
struct PDFWriter<Sink: PDFSink> {
    private(set) var sink: Sink
    private let pageCount: Int
    private var offsets: [Int: Int] = [:]
    private var added = 0

    init(sink: Sink, pageCount: Int) {
        self.sink = sink
        self.pageCount = pageCount
        self.sink.write(Data("%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8))
        object(1, "<< /Type /Catalog /Pages 2 0 R >>")
    }

    /// The document information's entries beyond `Producer`: the first page's that has any (`Page.info`).
    private var info: [String: String]?

    private static var objectsPerPage: Int { 10 }
    private func first(_ page: Int) -> Int { 4 + page * Self.objectsPerPage }

    mutating func add(_ page: SearchablePDF.Page) {
        let n = first(added)
        added += 1
        if info == nil { info = page.info }
        let (toUnicode, horizontal, vertical) = (n + 3, n + 4, n + 7)
        let size = "[0 0 \(FormatNumber.decimal(page.width)) \(FormatNumber.decimal(page.height))]"
        object(n, "<< /Type /Page /Parent 2 0 R /MediaBox \(size) /Contents \(n + 1) 0 R /Resources << "
               + "/XObject << /Im0 \(n + 2) 0 R >> /Font << /FH \(horizontal) 0 R /FV \(vertical) 0 R >> >> >>")
        stream(n + 1, "", page.content)
        let image = page.image
        var entries = "/Type /XObject /Subtype /Image /Width \(image.width) /Height \(image.height) "
            + "/ColorSpace /\(image.colourSpace) /BitsPerComponent 8 /Filter /\(image.filter)"
        if let parameters = image.decodeParameters { entries += " /DecodeParms \(parameters)" }
        if let decode = image.decode { entries += " /Decode \(decode)" }
        stream(n + 2, entries, image.data)
        stream(toUnicode, "", Data(PDFTextLayer.toUnicode(page.characters).utf8))
        font(horizontal, encoding: "Identity-H", toUnicode: toUnicode, metrics: "/DW 1000", ascent: 880, descent: -120)
        font(vertical, encoding: "Identity-V", toUnicode: toUnicode, metrics: "/DW 0 /DW2 [0 -1000]", ascent: 1000, descent: 0)
    }

    /// A Type0 font (object `number`), its CIDFont (`number + 1`) and font descriptor (`number + 2`).
    private mutating func font(_ number: Int, encoding: String, toUnicode: Int, metrics: String, ascent: Int, descent: Int) {
        let name = "/KotenOCR-InvisibleText"
        object(number, "<< /Type /Font /Subtype /Type0 /BaseFont \(name) /Encoding /\(encoding) "
               + "/DescendantFonts [\(number + 1) 0 R] /ToUnicode \(toUnicode) 0 R >>")
        object(number + 1, "<< /Type /Font /Subtype /CIDFontType2 /BaseFont \(name) "
               + "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(number + 2) 0 R "
               + "\(metrics) /CIDToGIDMap /Identity >>")
        object(number + 2, "<< /Type /FontDescriptor /FontName \(name) /Flags 4 /FontBBox [0 \(descent) 1000 \(ascent)] "
               + "/ItalicAngle 0 /Ascent \(ascent) /Descent \(descent) /CapHeight \(ascent) /StemV 80 >>")
    }

    /// Writes the page tree, the cross-reference table and the trailer; returns the sink.
    mutating func finish() -> Sink {
        let kids = (0..<added).map { "\(first($0)) 0 R" }.joined(separator: " ")
        object(2, "<< /Type /Pages /Kids [\(kids)] /Count \(added) >>")
        let entries = (info ?? [:]).sorted { $0.key < $1.key }.map { " /\($0.key) \(Self.textString($0.value))" }.joined()
        object(3, "<< /Producer (KotenOCR \(EngineVersion.current))\(entries) >>")
        let count = first(added)
        let start = sink.offset
        var table = "xref\n0 \(count)\n0000000000 65535 f \n"
        for number in 1..<count {
            table += String(format: "%010d 00000 n \n", offsets[number] ?? 0)
        }
        table += "trailer\n<< /Size \(count) /Root 1 0 R /Info 3 0 R >>\nstartxref\n\(start)\n%%EOF\n"
        sink.write(Data(table.utf8))
        return sink
    }

    /// `text` as a PDF text string: UTF-16BE with its byte-order mark, in hex (any script, no escaping).
    static func textString(_ text: String) -> String {
        "<FEFF" + text.utf16.map { String(format: "%04X", $0) }.joined() + ">"
    }

    private mutating func object(_ number: Int, _ body: String) {
        offsets[number] = sink.offset
        sink.write(Data("\(number) 0 obj\n\(body)\nendobj\n".utf8))
    }

    private mutating func stream(_ number: Int, _ entries: String, _ data: Data) {
        offsets[number] = sink.offset
        let dictionary = entries.isEmpty ? "/Length \(data.count)" : "\(entries) /Length \(data.count)"
        sink.write(Data("\(number) 0 obj\n<< \(dictionary) >>\nstream\n".utf8))
        sink.write(data)
        sink.write(Data("\nendstream\nendobj\n".utf8))
    }
}

/// Where a `PDFWriter` writes, and how many bytes it has written so far (the cross-reference table's offsets).
protocol PDFSink {
    var offset: Int { get }
    mutating func write(_ data: Data)
}

/// A PDF in memory.
struct DataSink: PDFSink {
    private(set) var data = Data()
    var offset: Int { data.count }
    mutating func write(_ data: Data) { self.data.append(data) }
}

/// A PDF written to a file as it is made; the first write error is kept and thrown by `check()`.
struct FileSink: PDFSink {
    let handle: FileHandle
    private(set) var offset = 0
    private var error: Error?

    init(handle: FileHandle) { self.handle = handle }

    mutating func write(_ data: Data) {
        guard error == nil else { return }
        do { try handle.write(contentsOf: data) } catch { self.error = error }
        offset += data.count
    }

    func check() throws { if let error { throw error } }
}
