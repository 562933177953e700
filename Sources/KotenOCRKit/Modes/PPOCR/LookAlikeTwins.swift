/// Characters that print alike in Japanese text, and the one rule that tells them apart: the characters beside
/// them (docs/reference-pipelines.md §4, "Step 4, look-alike twins").
///
/// The script pairs: the long-vowel mark ー and the kanji 一; the hiragana へ べ ぺ り and the katakana ヘ ベ ペ リ; the
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
///   katakana word (ホテルへ行く) has a kanji on its other side and stays. Punctuation beside them is a boundary,
///   as a line's end is: 出来ておリ、 reads 出来ており、.
/// - width twins: full-width when a neighbour is kana or kanji and none is an ASCII letter or digit, ASCII in the
///   opposite case: (目的) reads （目的）, （2）気送管 reads (2)気送管, a bracket between 2 and 気 stays as read.
/// - numeral twins, katakana ノ and the digit 1 or １ (a typewriter's or a slanted face's 1 is one stroke: the
///   spread's section number 5,3,1 reads 3，ノの, １ the runner-up at 0.11): ノ becomes the digit when a neighbour
///   is a digit (ASCII or full-width) and none is katakana, the digit becomes ノ the other way round; a separator
///   of a number (. , ， ． 、) with a digit beyond it is no boundary: the digit is the neighbour. The digit takes
///   the width of its neighbour digit (a number is printed in one width): 3，ノの reads 3，1の, ３，ノの ３，１の;
///   ノート after a number stays.
enum LookAlikeTwins {
    enum Script { case hiragana, katakana, kanji, ascii }

    /// The width pairs, ASCII first.
    static let widthPairs = ["(（", ")）", "[［", "]］", "!！", "?？"]

    /// Numeral twins: ノ and the digits it is misread for, each way.
    static let numeralTwins: [String: Set<String>] = ["ノ": ["1", "１"], "1": ["ノ"], "１": ["ノ"]]

    /// What separates the parts of a number (5.3.1, 3,1): no boundary between a numeral twin and a digit.
    static let numberSeparators: Set<String> = [".", ",", "，", "．", "、"]

    /// Each character's twin.
    static let twin: [String: String] = {
        var map = [String: String]()
        for pair in ["ー一", "へヘ", "べベ", "ぺペ", "りリ", "ロ口", "タ夕", "ニ二", "エ工", "カ力", "ト卜", "ハ八"] + widthPairs {
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
            if let twins = numeralTwins[c.text] {
                guard let runnerUp = runnerUps[i], twins.contains(runnerUp.text) else { continue }
                let beside = neighbours(characters, i, throughNumberSeparators: true).map { characters[$0].text }
                let digits = beside.filter(isDigit), katakana = beside.filter { script($0) == .katakana }.count
                if isDigit(c.text) ? katakana > 0 && digits.isEmpty : !digits.isEmpty && katakana == 0 {
                    // A number's digits are printed in one width: 1 takes its neighbour digit's.
                    let text = digits.first.map { $0.unicodeScalars.first?.isASCII == true ? "1" : "１" } ?? runnerUp.text
                    result[i] = RecognisedText.Character(text: text, confidence: runnerUp.probability)
                }
                continue
            }
            guard let twin = twin[c.text], let runnerUp = runnerUps[i], runnerUp.text == twin else { continue }
            let scripts = neighbourScripts(characters, i)
            let agrees: Bool
            if let fullWidth = widthTwins[c.text] {
                agrees = widthWanted(scripts) == !fullWidth
            } else {
                guard let wanted = script(twin) else { continue }
                let own = script(c.text)
                let kana: Set<Script?> = [.hiragana, .katakana]
                // Punctuation beside a kana pair is a boundary, as a line's end is: the neighbours of some script decide.
                let known = scripts.compactMap { $0 }
                agrees = kana.contains(own) && kana.contains(wanted)
                    ? !known.isEmpty && known.allSatisfy { $0 == wanted }
                    : scripts.contains(wanted) && !scripts.contains(own)
            }
            guard agrees else { continue }
            result[i] = RecognisedText.Character(text: twin, confidence: runnerUp.probability)
        }
        return pairedWidths(result, read: characters, runnerUps: runnerUps)
    }

    /// The scripts of the nearest characters that are not white space on each side of character `i`.
    static func neighbourScripts(_ characters: [RecognisedText.Character], _ i: Int) -> [Script?] {
        neighbours(characters, i).map { script(characters[$0].text) }
    }

    /// The indices of the nearest characters that are not white space on each side of character `i`. With
    /// `throughNumberSeparators`, a number separator with a digit beyond it is passed over (3，ノ: ノ's neighbour
    /// before it is 3).
    static func neighbours(_ characters: [RecognisedText.Character], _ i: Int,
                           throughNumberSeparators: Bool = false) -> [Int] {
        func nearest(from start: Int, step: Int) -> Int? {
            var j = start
            while characters.indices.contains(j) {
                if !characters[j].text.allSatisfy(\.isWhitespace) { return j }
                j += step
            }
            return nil
        }
        func neighbour(step: Int) -> Int? {
            guard let j = nearest(from: i + step, step: step) else { return nil }
            guard throughNumberSeparators, numberSeparators.contains(characters[j].text),
                  let k = nearest(from: j + step, step: step), isDigit(characters[k].text) else { return j }
            return k
        }
        return [neighbour(step: -1), neighbour(step: 1)].compactMap { $0 }
    }

    /// Whether `text` is one digit, ASCII or full-width.
    static func isDigit(_ text: String) -> Bool {
        guard text.unicodeScalars.count == 1, let s = text.unicodeScalars.first?.value else { return false }
        return (0x30...0x39).contains(s) || (0xFF10...0xFF19).contains(s)
    }

    /// The width neighbours of these `scripts` want: full-width (true) when one is kana or kanji and none an ASCII
    /// letter or digit, ASCII (false) the other way round, nil when they are mixed or say nothing.
    static func widthWanted(_ scripts: [Script?]) -> Bool? {
        let japanese = scripts.contains { $0 == .hiragana || $0 == .katakana || $0 == .kanji }
        let ascii = scripts.contains(.ascii)
        return japanese == ascii ? nil : japanese
    }

    /// Each bracket of the width pairs, either width: whether it opens, and its kind (its ASCII opening form).
    static let brackets: [String: (opening: Bool, kind: String)] = {
        var map = [String: (opening: Bool, kind: String)]()
        for (opening, closing) in [("(", ")"), ("[", "]")] {
            for text in [opening, closing] {
                for form in [text, twin[text] ?? text] { map[form] = (text == opening, opening) }
            }
        }
        return map
    }()

    /// Brackets of a pair are printed in one width. Where an opening bracket and its closing one differ, one of them
    /// takes its twin, if its twin is its other reading (the character read, if the rule changed it, else the
    /// model's runner-up): the one whose neighbours want no width when the other's want the width it has
    /// (（図2) reads （図2）: 図 wants （, 2 and 送 want nothing), else the less sure of the two when neither's
    /// neighbours want a width; brackets whose neighbours want different widths stay.
    static func pairedWidths(_ characters: [RecognisedText.Character], read: [RecognisedText.Character],
                             runnerUps: [(text: String, probability: Float)?]) -> [RecognisedText.Character] {
        var result = characters
        func other(_ i: Int) -> RecognisedText.Character? {
            guard let twin = twin[result[i].text] else { return nil }
            if read[i].text == twin { return read[i] }
            if let r = runnerUps[i], r.text == twin { return .init(text: twin, confidence: r.probability) }
            return nil
        }
        var open: [Int] = []
        for j in result.indices {
            let text = result[j].text
            guard let bracket = brackets[text] else { continue }
            if bracket.opening { open.append(j); continue }
            guard let k = open.lastIndex(where: { brackets[result[$0].text]?.kind == bracket.kind }) else { continue }
            let i = open[k]
            open.removeSubrange(k...)
            guard widthTwins[result[i].text] != widthTwins[text] else { continue }
            let wanted = (widthWanted(neighbourScripts(read, i)), widthWanted(neighbourScripts(read, j)))
            let side: Int?
            switch wanted {
            case (nil, nil): side = [i, j].filter { other($0) != nil }.min { result[$0].confidence < result[$1].confidence }
            case (.some(let w), nil): side = w == widthTwins[result[i].text] ? j : nil
            case (nil, .some(let w)): side = w == widthTwins[text] ? i : nil
            default: side = nil
            }
            if let side, let flipped = other(side) { result[side] = flipped }
        }
        return result
    }
}
