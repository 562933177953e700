extension OCRConfiguration {
    /// Which reading order a page's lines are put in.
    ///
    /// - `page` (the default): in the page's own frame. The page's skew is estimated from its lines (`SkewEstimate`)
    ///   and undone, a turned page is read upright (`PageRotation`), columns and blocks come from the XY-cut as in NDL's
    ///   code, and inside each block horizontal lines go top to bottom (each row left to right) and vertical lines
    ///   right to left (each column top to bottom) (`BlockLineOrder`). In the `ndl` and `koten` modes this differs from
    ///   NDL only in that last step: NDL's leaf sort is always by left edge, then top, for horizontal lines too (it
    ///   names `is_vertical` without calling it), and their boxes give no skew to undo.
    /// - `ndl`: NDL's order exactly (docs/reference-pipelines.md §1.4): the parity goldens' order, byte for byte.
    ///
    /// The reference formats of the `ndl` and `koten` modes (XML, NDL JSON, TEI, TXT) follow whichever is chosen.
    /// Source: docs/reference-pipelines.md §1.4 and "Where KotenOCR deviates".
    public enum ReadingOrderStyle: String, Sendable, CaseIterable, Codable, Hashable {
        case page
        case ndl
    }
}
