import Testing
@testable import KotenOCRKit

/// Look-alike twins in CTC decoding (docs/reference-pipelines.md §4, "Step 4, look-alike twins"), through the
/// real decoder on probability rows made for it.
@Suite struct LookAlikeTwinsTests {
    static let keys = ["blank", "ペ", "ジ", "一", "ー", "入", "ロ", "口", "の", "a", " ", "ぺ", "へ", "ヘ", "ル", "行",
                       "(", "（", ")", "）", "目", "的", "2", "?", "？", "お", "リ", "り", "、",
                       "ノ", "1", "3", "，", ".", "１", "３"]

    /// One step per (class, probability, runner-up class, its probability); the rest share what is left.
    static func rows(_ steps: [(Int, Float, Int, Float)]) -> [Float] {
        steps.flatMap { best, p, second, q -> [Float] in
            var row = [Float](repeating: 0.001, count: keys.count)
            row[best] = p
            row[second] = q
            return row
        }
    }

    private func read(_ steps: [(Int, Float, Int, Float)]) -> RecognisedText {
        CTCDecoder(keys: Self.keys).decode(Self.rows(steps), steps: steps.count, classes: Self.keys.count)
    }

    @Test("一 between katakana, ー its runner-up, reads ー, with ー's probability (the horizontal page's ペ一ジ)")
    func longVowelBetweenKatakana() {
        let r = read([(1, 0.69, 6, 0.3), (0, 0.9, 3, 0.05), (3, 0.97, 4, 0.021), (0, 0.9, 4, 0.01), (2, 0.99, 0, 0.005)])
        #expect(r.text == "ページ")
        #expect(r.characters[1].confidence == 0.021)
        #expect(r.characters[0].confidence == 0.69 && r.characters[2].confidence == 0.99)
    }

    @Test("ー between kanji reads 一; ロ between kanji reads 口; at a line's end one neighbour decides")
    func kanjiTwins() {
        #expect(read([(5, 0.9, 0, 0.05), (4, 0.8, 3, 0.15), (5, 0.9, 0, 0.05)]).text == "入一入")
        #expect(read([(5, 0.9, 0, 0.05), (6, 0.6, 7, 0.35)]).text == "入口")
    }

    @Test("no change when the twin is not the runner-up, when a neighbour is of another script, or with no neighbour")
    func unchanged() {
        // 一 between katakana, but the runner-up is the blank.
        #expect(read([(1, 0.9, 0, 0.05), (3, 0.97, 0, 0.02), (2, 0.9, 0, 0.05)]).text == "ペ一ジ")
        // 一 after katakana, before kanji: a neighbour is of its own script.
        #expect(read([(1, 0.9, 0, 0.05), (3, 0.97, 4, 0.02), (5, 0.9, 0, 0.05)]).text == "ペ一入")
        // The particle へ after katakana, before kanji: hiragana and katakana twins need both neighbours.
        #expect(read([(14, 0.9, 0, 0.05), (12, 0.9, 13, 0.08), (15, 0.9, 0, 0.05)]).text == "ルへ行")
        // ロ after Latin: not the kanji's script.
        #expect(read([(9, 0.9, 0, 0.05), (6, 0.6, 7, 0.35)]).text == "aロ")
        // A line of one look-alike.
        #expect(read([(3, 0.9, 4, 0.08)]).text == "一")
    }

    @Test("kana and kanji twins: one neighbour of the twin's script is enough when none is of the character's own")
    func oneNeighbour() {
        // ぺ一ジ (the horizontal page's second misreading): 一 between hiragana ぺ and katakana ジ reads ー.
        #expect(read([(11, 0.95, 1, 0.04), (3, 0.9, 4, 0.07), (2, 0.99, 0, 0.005)]).text == "ぺージ")
        // 投入ロの: ロ between the kanji 入 and the hiragana の reads 口.
        #expect(read([(5, 0.9, 0, 0.05), (6, 0.8, 7, 0.15), (8, 0.9, 0, 0.05)]).text == "入口の")
        // へ between katakana: the katakana ヘ.
        #expect(read([(14, 0.9, 0, 0.05), (12, 0.9, 13, 0.08), (2, 0.9, 0, 0.05)]).text == "ルヘジ")
    }

    @Test("white space between is skipped: the nearest characters that are not white space are the neighbours")
    func acrossSpace() {
        #expect(read([(5, 0.9, 0, 0.05), (10, 0.9, 0, 0.05), (4, 0.8, 3, 0.15), (5, 0.9, 0, 0.05)]).text == "入 一入")
    }

    @Test("width twins: brackets around Japanese read full-width, around figures ASCII, with a neighbour of each as read")
    func widthTwins() {
        // scaned0's （目的）: ( at 0.64 with （ the runner-up at 0.36, ) at 0.63 with ） at 0.37.
        let r = read([(16, 0.64, 17, 0.36), (20, 1, 0, 0), (21, 1, 0, 0), (18, 0.63, 19, 0.37)])
        #expect(r.text == "（目的）")
        #expect(r.characters[0].confidence == 0.36 && r.characters[3].confidence == 0.37)
        // （2） the other way: a digit inside, nothing Japanese beside.
        #expect(read([(17, 0.6, 16, 0.4), (22, 0.9, 0, 0.05), (19, 0.6, 18, 0.4)]).text == "(2)")
        // Between a digit and a kanji: as read, whichever it is.
        #expect(read([(22, 0.9, 0, 0.05), (16, 0.6, 17, 0.3), (20, 0.9, 0, 0.05)]).text == "2(目")
        #expect(read([(22, 0.9, 0, 0.05), (17, 0.6, 16, 0.3), (20, 0.9, 0, 0.05)]).text == "2（目")
        // The twin not the runner-up: as read.
        #expect(read([(16, 0.64, 0, 0.3), (20, 1, 0, 0)]).text == "(目")
        // ? after kana reads ？.
        #expect(read([(8, 0.9, 0, 0.05), (23, 0.7, 24, 0.2)]).text == "の？")
    }

    @Test("り and リ are twins; punctuation beside a kana pair is a boundary, as a line's end is")
    func punctuationBoundary() {
        // The spread's 出来ておリ、頭部: リ between the hiragana お and 、, its runner-up り.
        #expect(read([(25, 0.96, 0, 0.02), (26, 0.84, 27, 0.16), (28, 0.98, 0, 0.01)]).text == "おり、")
        // Between katakana and 、 the katakana stays (its twin's script is not beside it).
        #expect(read([(14, 0.9, 0, 0.05), (26, 0.84, 27, 0.16), (28, 0.98, 0, 0.01)]).text == "ルリ、")
        // Punctuation on both sides: no neighbour of any script, as read.
        #expect(read([(28, 0.9, 0, 0.05), (26, 0.84, 27, 0.16), (28, 0.98, 0, 0.01)]).text == "、リ、")
    }

    @Test("brackets of a pair take one width: the one whose neighbours want none follows the other, else the less sure")
    func pairedWidths() {
        // The spread's （図2) 送付管: 目 beside （ wants full-width; 2 and 的 beside ) want nothing; ）its runner-up.
        #expect(read([(17, 0.9, 0, 0.05), (20, 1, 0, 0), (22, 0.9, 0, 0.05), (18, 0.6, 19, 0.3), (21, 1, 0, 0)]).text == "（目2）的")
        // Neither's neighbours want a width (目(2 and 2）的): the less sure, ( at 0.5 with （ at 0.4, changes.
        #expect(read([(20, 1, 0, 0), (16, 0.5, 17, 0.4), (22, 0.9, 0, 0.05), (19, 0.9, 18, 0.05), (21, 1, 0, 0)]).text == "目（2）的")
        // Its twin is not its other reading: as read.
        #expect(read([(20, 1, 0, 0), (16, 0.5, 0, 0.4), (22, 0.9, 0, 0.05), (19, 0.9, 0, 0.05), (21, 1, 0, 0)]).text == "目(2）的")
        // The neighbours want different widths (（目 and 2)a): as read.
        #expect(read([(17, 0.9, 16, 0.05), (20, 1, 0, 0), (22, 0.9, 0, 0.05), (18, 0.6, 19, 0.3), (9, 1, 0, 0)]).text == "（目2)a")
    }

    @Test("ノ and 1 or １ are twins; a number's separator with a digit beyond it is no boundary (the spread's 5,3,1)")
    func numeralTwins() {
        // The spread's 3，ノの各層: ノ after 3 and ， before の, its runner-up １ at 0.11 (1 at 0.19 in a tighter crop);
        // the digit takes the width of the 3.
        let r = read([(31, 0.7, 35, 0.3), (32, 0.49, 28, 0.29), (29, 0.68, 34, 0.11), (8, 1, 0, 0)])
        #expect(r.text == "3，1の")
        #expect(r.characters[2].confidence == 0.11)
        #expect(read([(31, 0.95, 0, 0.01), (32, 0.5, 28, 0.3), (29, 0.52, 30, 0.19), (8, 1, 0, 0)]).text == "3，1の")
        // A full-width digit before the separator counts as a digit, and gives its width.
        #expect(read([(35, 0.95, 0, 0.01), (32, 0.5, 0, 0.3), (29, 0.6, 30, 0.3), (8, 1, 0, 0)]).text == "３，１の")
        // 3.ノ at a line's end, and ノ straight after a digit.
        #expect(read([(31, 0.95, 0, 0.01), (33, 0.9, 0, 0.05), (29, 0.6, 30, 0.3)]).text == "3.1")
        #expect(read([(31, 0.95, 0, 0.01), (29, 0.6, 30, 0.3), (8, 1, 0, 0)]).text == "31の")
        // 1 between katakana, ノ its runner-up, reads ノ (ー1ー: a katakana word).
        #expect(read([(4, 0.9, 0, 0.05), (30, 0.6, 29, 0.3), (4, 0.9, 0, 0.05)]).text == "ーノー")
    }

    @Test("ノ stays: in a katakana word after a number, without a digit beyond the separator, or with 1 not the runner-up")
    func numeralTwinsUnchanged() {
        // 3，ノー: a neighbour is katakana.
        #expect(read([(31, 0.95, 0, 0.01), (32, 0.5, 0, 0.3), (29, 0.6, 30, 0.3), (4, 0.9, 0, 0.05)]).text == "3，ノー")
        // の，ノの: the separator has no digit beyond it, so it is a boundary and の is no digit.
        #expect(read([(8, 1, 0, 0), (32, 0.5, 0, 0.3), (29, 0.6, 30, 0.3), (8, 1, 0, 0)]).text == "の，ノの")
        // 3，ノの with the blank the runner-up.
        #expect(read([(31, 0.95, 0, 0.01), (32, 0.5, 0, 0.3), (29, 0.6, 0, 0.3), (8, 1, 0, 0)]).text == "3，ノの")
        // Width twins do not look through separators: in 2，(の the neighbours of ( are ， and の, so it reads （ (through
        // the separator 2 and の would be mixed, and it would stay as read).
        #expect(read([(22, 0.9, 0, 0.05), (32, 0.5, 0, 0.3), (16, 0.6, 17, 0.3), (8, 1, 0, 0)]).text == "2，（の")
    }
}
