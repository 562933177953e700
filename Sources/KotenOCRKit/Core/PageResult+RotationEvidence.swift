extension PageResult {
    /// Why a page's `rotation` was taken (ppocr, the rotation found from the page: `--page-rotation auto`): the
    /// orientation classifier's vote, the writing test's votes and, when a half turn was in question, the page's
    /// longest main lines read both ways. Written in the page's JSON as `rotationEvidence` (docs/json-schema.md).
    package struct RotationEvidence: Sendable, Codable, Equatable {
        /// The orientation classifier's upside-down probability over the longest main lines, weighted by their
        /// length (nil without the classifier or main lines).
        package var upsideDown: Double?
        /// How many of the lines the writing test read voted for vertical writing and for horizontal writing
        /// turned a quarter (nil when no line could vote).
        package var writingVotes: WritingVotes?
        /// The longest main lines read each way, when a half turn was in question (the classifier voted for one, or
        /// its side read few characters confidently); empty otherwise. The page is turned only when the turned
        /// reading reads more characters confidently than the other.
        package var readings: [Reading]
        /// The page read turned read fewer characters confidently, in all its lines, than the upright reading did in
        /// its sample lines: it was read upright instead (true; absent otherwise).
        package var turnUndone: Bool?

        package init(upsideDown: Double? = nil, writingVotes: WritingVotes? = nil, readings: [Reading] = [], turnUndone: Bool? = nil) {
            self.upsideDown = upsideDown
            self.writingVotes = writingVotes
            self.readings = readings
            self.turnUndone = turnUndone
        }

        package struct WritingVotes: Sendable, Codable, Equatable {
            package var vertical: Int
            package var horizontal: Int
        }

        /// A reading of the sample lines turned as `rotation` says.
        package struct Reading: Sendable, Codable, Equatable {
            /// The page's rotation this reading stands for (degrees clockwise from upright).
            package var rotation: Int
            /// Lines read.
            package var lines: Int
            /// Characters read.
            package var characters: Int
            /// Characters read at `confidentAt` or more.
            package var confident: Int
        }

        /// A character read at this probability or more counts as read confidently.
        package static let confidentAt: Float = 0.8
    }
}
