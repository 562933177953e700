/// The text of one line and how sure the recogniser was of it.
public struct RecognisedText: Sendable, Equatable, Codable {
    /// One recognised character (a Unicode scalar sequence from the charset) and its probability.
    public struct Character: Sendable, Equatable, Codable {
        public var text: String
        public var confidence: Float
        /// The rule that found this character in the line's pixels where the recogniser, reading the line, emitted
        /// nothing (ppocr, docs/reference-pipelines.md §4): `verticalPunctuation` (a 、, 。 or ー of a vertical line,
        /// told by its shape; its confidence is the line's) or `smallKana` (a small kana of a vertical line, read by the
        /// recogniser from the line's cells turned upright; its confidence is that reading's). Also set on a character
        /// the recogniser emitted and a rule changed: a kana re-formed small from its ink (`smallKana`, `SmallKanaReform`),
        /// a grave read as 、 (`verticalPunctuation`); its confidence is then the one it was
        /// read at. Nil (absent from the JSON) for the characters the recogniser emitted as they are.
        public var foundBy: String? = nil

        public init(text: String, confidence: Float, foundBy: String? = nil) {
            self.text = text
            self.confidence = confidence
            self.foundBy = foundBy
        }
    }

    public var text: String
    /// Per-character probabilities, in text order.
    public var characters: [Character]
    /// Where each character's centre sits along the line read, as a fraction of its length (0 = where reading
    /// starts, 1 = where it ends), in text order; nil when the recogniser does not tell (PARSeq) or the count does
    /// not match. `ppocr`: from the CTC steps that emitted each character (`CTCAlignment`). Not written to JSON.
    public var characterCentres: [Double]?

    enum CodingKeys: String, CodingKey { case text, characters }
    /// Line confidence: the mean of the characters' probabilities (nil for an empty line).
    public var confidence: Float? {
        characters.isEmpty ? nil : characters.reduce(0) { $0 + $1.confidence } / Float(characters.count)
    }

    public init(characters: [Character], characterCentres: [Double]? = nil) {
        self.characters = characters
        self.text = characters.map(\.text).joined()
        self.characterCentres = characterCentres?.count == characters.count ? characterCentres : nil
    }

    public static let empty = RecognisedText(characters: [])
}
