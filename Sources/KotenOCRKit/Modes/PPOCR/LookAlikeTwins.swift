/// Characters that print alike in Japanese text, and the one rule that tells them apart: the characters beside
/// them (docs/reference-pipelines.md §4, "Step 4, look-alike twins").
///
/// The script pairs: the long-vowel mark ー and the kanji 一; the hiragana へ べ ぺ and the katakana ヘ ベ ペ; the
/// katakana ロ タ ニ エ カ ト ハ and the kanji 口 夕 二 工 力 卜 八. Their glyphs are one shape (or differ by a hair), so
/// the image cannot choose and PP-OCRv5's recogniser takes one or the other with a confidence that says nothing:
/// ペ一ジ with 一 at 0.97 and ー the runner-up at 0.02 (`make quality`'s `horizontal` page). A reader of Japanese
/// decides by the neighbours: between katakana it is ー, between kanji 一.
///
/// The width pairs: the ASCII ( ) [ ] ! ? and the full-width （ ） ［ ］ ！ ？. On a line crop scaled to 48 pixels the
/// two brackets are one curve and the model hesitates (`samples/scaned0.png`'s （目的）: ( at 0.64, （ at 0.36).
/// Japanese typesetting sets Japanese text in full-width brackets and Latin text and figures in ASCII ones (JIS X
/// 4051's rule): the neighbours decide again.
///
/// The rule changes a character only to its twin, and only when the twin is the model's own runner-up at the step
/// that emitted it. Then the neighbours decide (the nearest character on each side that is not white space; one
/// at a line's end), scripts being katakana (ー counts as katakana), hiragana, kanji (and 々), ASCII letters and digits:
/// - kana and kanji twins (ー 一, ロ 口, ...): a neighbour is of the twin's script and none of the character's own.
///   One neighbour is enough because misreadings come together: ぺ一ジ (hiragana ぺ, kanji 一) is ページ.
/// - hiragana and katakana twins (へ ヘ, ...): every neighbour is of the twin's script. The particle へ after a
///   katakana word (ホテルへ行く) has a kanji on its other side and stays.
/// - width twins: full-width when a neighbour is kana or kanji and none is an ASCII letter or digit, ASCII in the
///   opposite case: (目的) reads （目的）, （2）気送管 reads (2)気送管, a bracket between 2 and 気 stays as read.
enum LookAlikeTwins {
    enum Script { case hiragana, katakana, kanji, ascii }

    /// The width pairs, ASCII first.
    static let widthPairs = ["(（", ")）", "[［", "]］", "!！", "?？"]

    /// Each character's twin.
    static let twin: [String: String] = {
        var map = [String: String]()
        for pair in ["ー一", "へヘ", "べベ", "ぺペ", "ロ口", "タ夕", "ニ二", "エ工", "カ力", "ト卜", "ハ八"] + widthPairs {
            let a = String(pair.prefix(1)), b = String(pair.dropFirst())
            map[a] = b
            map[b] = a
        }
        return map
    }()

    /// Each member of a width pair: true for the full-width one.
    static let widthTwins: [String: Bool] = {
        var map = [String: Bool]()
        for pair in widthPairs {
            map[String(pair.prefix(1))] = false
            map[String(pair.dropFirst())] = true
        }
        return map
    }()

    /// The script of a one-character string (ASCII: letters and digits), nil for anything else (punctuation, other
    /// letters, several scalars).
    static func script(_ text: String) -> Script? {
        guard text.unicodeScalars.count == 1, let s = text.unicodeScalars.first?.value else { return nil }
        switch s {
        case 0x3041...0x309F: return .hiragana
        case 0x30A1...0x30FA, 0x30FC...0x30FE, 0xFF66...0xFF9F: return .katakana
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x3005: return .kanji
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .ascii
        default: return nil
        }
    }

    /// `characters` with each look-alike replaced by its twin where the rule says so. `runnerUps[i]` is the
    /// model's second choice (text, probability) at the step that emitted character i; a replaced character
    /// takes its twin's probability. Neighbours are judged as read, before any replacement.
    static func resolve(_ characters: [RecognisedText.Character],
                        runnerUps: [(text: String, probability: Float)?]) -> [RecognisedText.Character] {
        guard runnerUps.count == characters.count else { return characters }
        var result = characters
        for (i, c) in characters.enumerated() {
            guard let twin = twin[c.text], let runnerUp = runnerUps[i], runnerUp.text == twin else { continue }
            let before = characters[..<i].last { !$0.text.allSatisfy(\.isWhitespace) }
            let after = characters[(i + 1)...].first { !$0.text.allSatisfy(\.isWhitespace) }
            let scripts = [before, after].compactMap { $0 }.map { script($0.text) }
            let agrees: Bool
            if let fullWidth = widthTwins[c.text] {
                // A width twin: its twin's width when a neighbour is of that width's writing and none of its own.
                let japanese = scripts.contains { $0 == .hiragana || $0 == .katakana || $0 == .kanji }
                let ascii = scripts.contains(.ascii)
                agrees = fullWidth ? ascii && !japanese : japanese && !ascii
            } else {
                guard let wanted = script(twin) else { continue }
                let own = script(c.text)
                let kana: Set<Script?> = [.hiragana, .katakana]
                agrees = kana.contains(own) && kana.contains(wanted)
                    ? !scripts.isEmpty && scripts.allSatisfy { $0 == wanted }
                    : scripts.contains(wanted) && !scripts.contains(own)
            }
            guard agrees else { continue }
            result[i] = RecognisedText.Character(text: twin, confidence: runnerUp.probability)
        }
        return result
    }
}
