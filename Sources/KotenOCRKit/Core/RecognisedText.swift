/// The text of one line and how sure the recogniser was of it.
public struct RecognisedText: Sendable, Equatable, Codable {
    /// One recognised character (a Unicode scalar sequence from the charset) and its probability.
    public struct Character: Sendable, Equatable, Codable {
        public var text: String
        public var confidence: Float
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
