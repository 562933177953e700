extension PageResult {
    /// How a page detector saw one page (ppocr's DB detector): its passes over the page, in order, and whether any
    /// was cut into tiles. Written in the page's JSON as `detector` (docs/json-schema.md) and counted in the
    /// diagnostics payload's `pages.tiled`.
    public struct DetectorSummary: Sendable, Codable, Equatable {
        package var passes: [DetectorPass]
        /// True when a pass ran as several overlapping tiles because one run would have exceeded the memory
        /// budget (or the per-run bound of `DetectorScale`).
        public var tiled: Bool

        package init(passes: [DetectorPass]) {
            self.passes = passes
            tiled = passes.contains { $0.tiles > 1 }
        }
    }
}

/// One pass of the detector over a whole page.
package struct DetectorPass: Sendable, Codable, Equatable {
    /// Why it ran: `page` (the first pass), `thin lines` (the text was too thin in the first pass's map),
    /// `narrow page` (a strip or tall page whose first map was too narrow to find anything in), `small text`
    /// (a large page whose first map held no clearly thick text).
    public var reason: String
    /// Detector pixels per page pixel (≤ 1: a page is never enlarged).
    public var scale: Double
    /// The map's size in pixels (each side a multiple of 32; the page resized, never padded).
    public var width: Int
    public var height: Int
    /// Model runs: 1, or the number of overlapping tiles whose maps were stitched into the page's map.
    public var tiles: Int
    /// Map pixels of the page's background added on each long side of a narrow map (`DetectorScale.paddedSides`);
    /// nil (absent from the JSON) when none was.
    public var padding: Int?

    public init(reason: String, scale: Double, width: Int, height: Int, tiles: Int, padding: Int = 0) {
        self.reason = reason
        self.scale = scale
        self.width = width
        self.height = height
        self.tiles = tiles
        self.padding = padding > 0 ? padding : nil
    }
}
