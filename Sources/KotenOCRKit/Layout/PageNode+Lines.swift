extension PageNode {
    /// Every LINE of the NDL page tree in document order (ElementTree `findall(".//LINE")`).
    public var lines: [PageNode] { paths(of: "LINE").map { self[path: $0] } }
}
