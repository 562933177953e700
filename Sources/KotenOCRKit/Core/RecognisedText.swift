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
    /// Line confidence: the mean of the characters' probabilities (nil for an empty line).
    public var confidence: Float? {
        characters.isEmpty ? nil : characters.reduce(0) { $0 + $1.confidence } / Float(characters.count)
    }

    public init(characters: [Character]) {
        self.characters = characters
        self.text = characters.map(\.text).joined()
    }

    public static let empty = RecognisedText(characters: [])
}
