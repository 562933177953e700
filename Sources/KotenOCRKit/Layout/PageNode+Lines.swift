extension PageNode {
    /// Every LINE of the NDL page tree in document order (ElementTree `findall(".//LINE")`).
    package var lines: [PageNode] { paths(of: "LINE").map { self[path: $0] } }
}
