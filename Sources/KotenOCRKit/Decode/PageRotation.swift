/// How a page as given (EXIF orientation applied) is turned from upright: its upright page turned clockwise by
/// 0°, 90°, 180° or 270°. The engine reads it turned back, and every coordinate it reports is in the upright
/// page (`PageResult.rotation` says which turn was undone). Source: docs/reference-pipelines.md "Where KotenOCR
/// deviates"; docs/json-schema.md.
public enum PageRotation: Int, Sendable, CaseIterable, Codable, Hashable {
    case upright = 0
    case clockwise90 = 90
    case halfTurn = 180
    case clockwise270 = 270

    /// The rotation of `degrees` (0, 90, 180 or 270), nil for any other value.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    /// Degrees the upright page was turned clockwise.
    public var degrees: Int { rawValue }

    /// Quarter turns clockwise from upright (0–3).
    var quarterTurns: Int { rawValue / 90 }

    /// The rotation of `quarterTurns` clockwise quarter turns (any integer, taken modulo 4).
    init(quarterTurns: Int) {
        self = PageRotation(rawValue: ((quarterTurns % 4 + 4) % 4) * 90) ?? .upright
    }

    /// Whether width and height swap between the page as given and upright.
    public var swapsSides: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The upright page's size for a page given as `width` × `height`.
    public func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsSides ? (height, width) : (width, height)
    }

    /// `image` (the page as given) turned upright: counter-clockwise by this rotation.
    public func upright(_ image: RGBImage) -> RGBImage {
        image.turnedCounterClockwise(quarterTurns: quarterTurns)
    }
}

extension RGBImage {
    /// Turned counter-clockwise by `quarterTurns` × 90° (any integer, taken modulo 4).
    public func turnedCounterClockwise(quarterTurns: Int) -> RGBImage {
        switch (quarterTurns % 4 + 4) % 4 {
        case 1: return rotatedCounterClockwise()
        case 2: return rotated180()
        case 3: return rotatedClockwise()
        default: return self
        }
    }
}
