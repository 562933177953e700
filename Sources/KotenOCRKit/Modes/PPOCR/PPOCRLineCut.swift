extension PPOCRPipeline {
    /// ppocr's cut, as `readLines` cuts a line for the recogniser: the outline's corners from its top-left
    /// (`cornersFromTopLeft`), warped upright at source resolution (`perspectiveCrop`), then turned a quarter
    /// counter-clockwise when the line is vertical (the turn every vertical line of an upright page takes:
    /// `PPOCRPageOrientation`'s main turn on a vertical page, its across turn on a horizontal one). An outline of
    /// other than four corners (a drawn polygon) is cut by its box. Not reproduced: a line across the main ones the
    /// classifier turned 180°, and a line the second look read again from a crop with a margin (`SecondLook`).
    package func lineImage(_ line: LineOutline, of page: RGBImage) -> RGBImage {
        let p = line.polygon
        let b = line.box
        let quad = p.count == 4
            ? Self.cornersFromTopLeft(Quad(p[0], p[1], p[2], p[3]))
            : Quad(Point(x: Double(b.x1), y: Double(b.y1)), Point(x: Double(b.x2), y: Double(b.y1)),
                   Point(x: Double(b.x2), y: Double(b.y2)), Point(x: Double(b.x1), y: Double(b.y2)))
        let crop = perspectiveCrop(page, quad: quad)
        let vertical = line.vertical ?? (LineOrientation(width: Double(crop.width), height: Double(crop.height)) == .vertical)
        return vertical ? crop.turnedCounterClockwise(quarterTurns: 1) : crop
    }
}
