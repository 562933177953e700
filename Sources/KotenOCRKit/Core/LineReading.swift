/// What a line recogniser returns to the NDL cascade and the koten line reader: the decoded string
/// alone (`String`, as the reference and the parity mocks) or the string with per-character
/// probabilities (`RecognisedText`, what the engine keeps).
public protocol LineReading: Sendable {
    /// The reading of an empty crop (the reference's "").
    static var empty: Self { get }
    /// Length in Unicode scalars, as Python's `len` counts the decoded string (the cascade's
    /// escalation thresholds; docs/reference-pipelines.md §1.5).
    var scalarCount: Int { get }
    /// The two halves of a split line, read left then right, as one reading.
    static func + (lhs: Self, rhs: Self) -> Self
}

extension String: LineReading {
    public static var empty: String { "" }
    public var scalarCount: Int { unicodeScalars.count }
}

extension RecognisedText: LineReading {
    /// Characters are charset entries, one Unicode scalar each (PARSeq's token k = charset[k − 1]).
    public var scalarCount: Int { text.unicodeScalars.count }

    public static func + (lhs: RecognisedText, rhs: RecognisedText) -> RecognisedText {
        RecognisedText(characters: lhs.characters + rhs.characters)
    }
}
