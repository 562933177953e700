import Foundation

/// How text is folded for search (docs/corpus.md, "Search"): each character (grapheme) through NFKC, then
/// lower case, then old forms to new (`VariantTable`). The query and the indexed text fold alike, so ｶﾞ finds
/// ガ, ＡＢＣ finds abc, 國 finds 国. Folding character by character keeps a map from the folded text back to
/// the original characters (a hit's place in its line).
struct SearchFolding: Sendable {
    let variants: VariantTable

    /// `text` folded, and for each folded scalar the index of the original character it came from.
    func fold(_ text: String) -> (scalars: [Unicode.Scalar], origin: [Int]) {
        var scalars: [Unicode.Scalar] = [], origin: [Int] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        origin.reserveCapacity(text.unicodeScalars.count)
        for (i, character) in text.enumerated() {
            let piece: String
            if character.isASCII {
                piece = character.lowercased()
            } else {
                piece = String(character).precomposedStringWithCompatibilityMapping.lowercased()
            }
            for s in piece.unicodeScalars {
                scalars.append(variants.map[s] ?? s)
                origin.append(i)
            }
        }
        return (scalars, origin)
    }

    func foldedString(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: fold(text).scalars)
        return String(out)
    }

    /// The folded text as the one-character index (`search_chars`) takes it: each character a token, separated
    /// by spaces. A character its tokenizer would drop (punctuation, spaces, symbols) becomes U+E000, a token
    /// of its own, so that 源、氏 stays three tokens and a query for 源氏 does not find it.
    static func characterTokens(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        var first = true
        for s in scalars {
            if !first { out.append(" ") }
            first = false
            out.append(isTokenCharacter(s) ? s : "\u{E000}")
        }
        return String(out)
    }

    /// Letters, numbers, private use and marks: the categories the `search_chars` tokenizer keeps
    /// (`categories 'L* N* Co M*'`).
    static func isTokenCharacter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// An FTS5 phrase for `text` (quoted, quotes doubled).
    static func phrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
