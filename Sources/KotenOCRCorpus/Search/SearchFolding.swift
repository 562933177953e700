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
        return t.allSatisfy(composesWithNothing) ? distinctGrams(scalarKeyed: t) : distinctGrams(stringKeyed: t)
    }

    /// `gramTokens` with each token told apart by its scalars: the same tokens in the same order as
    /// `distinctGrams(stringKeyed:)` when no token of `t` is canonically equivalent to another of other scalars
    /// (`composesWithNothing`), at a tenth of its cost (a `String` hashes and compares through normalisation:
    /// it was most of an edit's CPU time, docs/corpus.md "Upkeep outside the edits").
    static func distinctGrams(scalarKeyed t: [Unicode.Scalar]) -> String {
        var seen = Set<UInt64>(minimumCapacity: 2 * t.count)
        var out = String.UnicodeScalarView()
        func add(_ key: UInt64, _ a: Unicode.Scalar, _ b: Unicode.Scalar?) {
            guard seen.insert(key).inserted else { return }
            if !out.isEmpty { out.append(" ") }
            out.append(a)
            if let b { out.append(b) }
        }
        for i in t.indices {
            let a = UInt64(t[i].value)
            add(a, t[i], nil)
            if i + 1 < t.count { add(1 << 42 | a << 21 | UInt64(t[i + 1].value), t[i], t[i + 1]) }
        }
        return String(out)
    }

    /// `gramTokens` with tokens told apart as `String`s (canonical equivalence): for text outside
    /// `composesWithNothing`.
    static func distinctGrams(stringKeyed t: [Unicode.Scalar]) -> String {
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

    /// A scalar that no normalisation changes and that composes with no neighbour: unchanged by NFKC and case
    /// folding (so its own normal form), of combining class 0, and in blocks holding no scalar of class 0 that
    /// composes with the one before it (those start at U+09BE; Hangul jamo are at U+1100–U+11FF): Latin to
    /// Armenian, Hebrew, Arabic (below U+0900), CJK punctuation, kana, ideographs (U+3000–U+9FFF, and the
    /// supplementary planes' U+20000–U+3FFFF), private use U+E000–U+F8FF. Japanese text is all of these.
    static func composesWithNothing(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        guard v < 0x0900 || (0x3000..<0xA000).contains(v) || (0xE000..<0xF900).contains(v) || (0x20000..<0x40000).contains(v) else { return false }
        return s.properties.canonicalCombiningClass == .notReordered && !s.properties.changesWhenNFKCCaseFolded
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
