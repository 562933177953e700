/// A LINE to recognise, in document order of the ordered page.
package struct RecognitionLine: Sendable, Hashable {
    /// The LINE box from the XML (X, Y, X+WIDTH, Y+HEIGHT), image pixels, unclamped.
    public var box: PixelBox
    /// PRED_CHAR_CNT as a float (3 → 30-char model, 2 → 50, else 100); 100 when absent.
    public var charCountClass: Double

    public init(box: PixelBox, charCountClass: Double) {
        self.box = box
        self.charCountClass = charCountClass
    }
}

extension PageNode {
    /// Sets STRING on the LINEs in document order (`strings[i]` on the i-th LINE).
    public mutating func setLineStrings(_ strings: [String]) {
        for (path, s) in zip(paths(of: "LINE"), strings) { self[path: path][attribute: "STRING"] = s }
    }
}
