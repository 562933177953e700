/// Mode differences of the reference reading order (docs/reference-pipelines.md §1.4, §2.3).
package struct ReadingOrderOptions: Sendable, Hashable {
    /// Adjacent LINE/WARICHUBLOCK elements are duplicates when intersection / min(area) > this.
    public var duplicateThreshold: Double
    /// Only compare when min(area) > 0 (NDL); koten divides anyway (a zero area never matches).
    public var duplicateNeedsPositiveArea: Bool
    /// Group 割注 LINEs into temporary WARICHUBLOCKs while sorting (NDL).
    public var groupsWarichu: Bool
    /// Run the minimum-Hamiltonian-path smoothing after sorting (NDL).
    public var smoothing: Bool

    public init(duplicateThreshold: Double, duplicateNeedsPositiveArea: Bool, groupsWarichu: Bool, smoothing: Bool) {
        self.duplicateThreshold = duplicateThreshold
        self.duplicateNeedsPositiveArea = duplicateNeedsPositiveArea
        self.groupsWarichu = groupsWarichu
        self.smoothing = smoothing
    }

    /// NDLOCR-Lite: dup > 0.8 with the area guard, 割注 grouping, smoothing.
    public static let ndl = ReadingOrderOptions(
        duplicateThreshold: 0.8, duplicateNeedsPositiveArea: true, groupsWarichu: true, smoothing: true)
    /// NDL Koten OCR-Lite: dup > 0.9 without the guard, no 割注, no smoothing.
    public static let koten = ReadingOrderOptions(
        duplicateThreshold: 0.9, duplicateNeedsPositiveArea: false, groupsWarichu: false, smoothing: false)
}

/// Reading order of an NDL page tree (`eval_xml` + `sort_lines` of the reference).
///
/// reference: docs/reference-pipelines.md §1.4; parity README R1–R6, `stage_ordered.xml`.
package enum ReadingOrder {
    /// Sets ORDER on every LINE from the XY-cut ranks, sorts lines inside blocks and blocks on the
    /// page, removes adjacent duplicates, and (NDL) smooths the page order. Elements move with
    /// their text tails, as ElementTree moves them.
    ///
    /// - Parameters:
    ///   - page: the PAGE element as parsed from the layout template.
    ///   - leafOrder: `reference` for the reference's order exactly (the `ndl` reading order); `byOrientation`
    ///     sorts each XY-cut leaf by its writing direction (the `page` order), everything else as the reference.
    public static func apply(to page: inout PageNode, options: ReadingOrderOptions,
                             leafOrder: XYCut.LeafOrder = .reference) {
        let paths = page.paths(of: "LINE")
        let ranks = XYCut.readingRanks(of: paths.map { page[path: $0].lineBox }, leafOrder: leafOrder)
        for (path, rank) in zip(paths, ranks) { page[path: path][attribute: "ORDER"] = String(rank) }
        let dedup = DuplicateFilter(threshold: options.duplicateThreshold,
                                    needsPositiveArea: options.duplicateNeedsPositiveArea)
        if options.groupsWarichu {
            Warichu.group(in: &page)
            LineSorting.sortChildren(of: &page, dedup: dedup)
            Warichu.ungroup(in: &page)
        } else {
            LineSorting.sortChildren(of: &page, dedup: dedup)
        }
        if options.smoothing { Smoothing.apply(to: &page) }
    }
}
