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
            let own = character.unicodeScalars
            // Most characters of a Japanese page fold to themselves (NFKC_Casefold leaves them): no string made.
            if own.count == 1, let s = own.first, !s.properties.changesWhenNFKCCaseFolded {
                scalars.append(variants.map[s] ?? s)
                origin.append(i)
                continue
            }
            let piece = Self.nfkc(String(character)).lowercased()
            for s in piece.unicodeScalars {
                scalars.append(variants.map[s] ?? s)
                origin.append(i)
            }
        }
        return (scalars, origin)
    }

    /// NFKC. Foundation's (on Linux) leaves a half-width voiced sound mark as a combining mark (ｶﾞ → カ + U+3099);
    /// canonical composition after it makes ガ, as NFKC does.
    static func nfkc(_ s: String) -> String {
        s.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
    }

    /// The folded text as the short-query index (`search_grams`) takes it: every distinct character and every
    /// distinct pair of neighbours, each a token, separated by spaces (no positions are kept: a query of one or
    /// two characters is one token). A character that index's tokenizer would drop (punctuation, spaces, symbols)
    /// stands as U+E000, so that the pairs stay pairs of neighbours; the hits are checked against the text itself.
    static func gramTokens(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        let t = scalars.map { isTokenCharacter($0) ? $0 : "\u{E000}" }
        var seen = Set<String>(), out: [String] = []
        for i in t.indices {
            let one = String(Character(t[i]))
            if seen.insert(one).inserted { out.append(one) }
            if i + 1 < t.count {
                var pair = String.UnicodeScalarView()
                pair.append(t[i]); pair.append(t[i + 1])
                let two = String(pair)
                if seen.insert(two).inserted { out.append(two) }
            }
        }
        return out.joined(separator: " ")
    }

    /// The one token of `gramTokens` a query of one or two characters is.
    static func gramToken(_ scalars: [Unicode.Scalar]) -> String {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars.prefix(2).map { isTokenCharacter($0) ? $0 : "\u{E000}" })
        return String(v)
    }

    /// Letters, numbers, private use and marks: the categories the `search_grams` tokenizer keeps
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
