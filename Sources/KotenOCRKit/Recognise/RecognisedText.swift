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

/// A model family's line recogniser: reads the text of one upright line image.
public protocol TextRecogniser: Sendable {
    /// Reads `line` (8-bit RGB, text running left to right). Runs its model through `store` (and so
    /// through the inference limiter). Throws `InferenceError`, `ModelStoreError`.
    func recognise(_ line: RGBImage, store: ModelStore) async throws -> RecognisedText
}
