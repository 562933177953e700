/// Character-by-character escaping shared by the XML and JSON writers.
enum ScalarEscaping {
    /// `s` with every scalar that `replacement` maps replaced by that string.
    static func escape(_ s: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if let r = replacement(u) { out += r } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// The XML predefined entities by name.
    static let xmlEntities: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
}
