/// A page's line crops for the NDL modes' recognisers, cut once from the file after detection
/// (`ImageSource.decodeRegions`: the page never exists whole), so neither the page nor its EXIF-rotated copy stays
/// resident while the lines are read (docs/performance.md, "Where the NDL modes' memory went"). When the crops
/// together would hold more pixels than the page (overlapping boxes), the page is decoded once instead and the
/// lines are read from it.
///
/// Every reading is of the same pixels as from the decoded page: a crop is the box's pixels, and a box inside a
/// crop (the NDL cascade's half lines) is read from that crop at its offset.
struct LineImages: Sendable {
    private let boxes: [PixelBox]
    private let images: [RGBImage]
    private let index: [PixelBox: Int]
    /// The page itself, when it was cheaper than the crops.
    private let page: RGBImage?

    /// Cuts the distinct non-empty `boxes` (xyxy pixels inside the upright page) from `source`. Throws `ImageError`.
    init(_ source: ImageSource, boxes: [PixelBox]) throws {
        var seen = Set<PixelBox>()
        let unique = boxes.filter { $0.width > 0 && $0.height > 0 && seen.insert($0).inserted }
        if unique.reduce(0, { $0 + $1.width * $1.height }) > source.width * source.height {
            page = try source.decode()
            self.boxes = []
            images = []
        } else {
            page = nil
            self.boxes = unique
            images = try source.decodeRegions(unique)
        }
        index = Dictionary(uniqueKeysWithValues: self.boxes.enumerated().map { ($1, $0) })
    }

    /// The line to read for `box` (a box given to `init`, or one inside such a box).
    func region(_ box: PixelBox) -> LineRegion {
        if let page { return LineRegion(box, of: page) }
        if let i = index[box] { return LineRegion(wholeOf: images[i]) }
        if let i = boxes.firstIndex(where: { $0.x1 <= box.x1 && $0.y1 <= box.y1 && $0.x2 >= box.x2 && $0.y2 >= box.y2 }) {
            let b = boxes[i]
            return LineRegion(PixelBox(x1: box.x1 - b.x1, y1: box.y1 - b.y1, x2: box.x2 - b.x1, y2: box.y2 - b.y1), of: images[i])
        }
        // Not a box the pipeline cut (cannot happen: the cascade reads its line boxes and their halves): an empty line.
        return LineRegion(PixelBox(x1: 0, y1: 0, x2: 0, y2: 0), of: RGBImage(width: 0, height: 0))
    }
}
