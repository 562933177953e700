/// The `ppocr` page-orientation and recognition stage: decides how the page is turned (`PPOCRPageOrientation`)
/// and reads every line turned upright in batched runs, at most `limit` in flight (the reader counts each
/// line it reads: `LineProgress`).
///
/// Votes: the orientation classifier's upside-down probability on up to `voters` of the longest main lines
/// (turned as the lines' shape says), weighted by their length. Per line: main lines turned the page's way; lines
/// across them turned one quarter more or less and then 180° when the classifier says so (probability above its
/// threshold, as PP-OCR does line by line); near-square lines on a page of odd text turn read both ways, the more
/// confident reading kept. Source: docs/reference-pipelines.md §4 steps 2–4 and "Where KotenOCR deviates".
struct PPOCRLineTurning: Sendable {
    let classifier: OrientationClassifier?
    let reader: any LineReader<RecognisedText>
    let store: ModelStore
    let limit: Int
    /// Most main lines the classifier votes on.
    static let voters = 12

    /// A line's reading and how its crop was turned for it.
    struct Reading: Sendable {
        var text: RecognisedText
        /// Quarter turns counter-clockwise applied to the crop (as cut from the page as given).
        var quarterTurns: Int
        /// The crop's size as cut (before turning).
        var cropWidth: Int
        var cropHeight: Int
    }

    /// What is known of a page's orientation before its lines are read.
    enum Known: Sendable {
        /// Nothing: the lines' shapes, the classifier's votes and the writing test tell.
        case none
        /// The page is upright; its writing follows from its lines' shapes.
        case upright
        /// The page is upright and written this way (found on the page as given, read again upright).
        case writing(vertical: Bool)
    }

    /// The page's orientation and every line's reading, in the order of `crops` (perspective crops of the page),
    /// and, when nothing was known, the evidence the orientation was taken on; no readings when nothing was known
    /// and the page is found turned. Throws `InferenceError`, `ModelStoreError`.
    func read(_ crops: [RGBImage], known: Known) async throws
        -> (orientation: PPOCRPageOrientation, readings: [Reading], evidence: PageResult.RotationEvidence?) {
        let sizes = crops.map { (width: $0.width, height: $0.height) }
        let tallMain = PPOCRPageOrientation.tallMain(sizes)
        var orientation: PPOCRPageOrientation
        var tested: [Int: RecognisedText] = [:]
        var evidence: PageResult.RotationEvidence?
        switch known {
        case .upright:
            orientation = PPOCRPageOrientation(rotation: .upright, tallMain: tallMain)
        case .writing(let vertical):
            orientation = PPOCRPageOrientation(textTurn: vertical ? 1 : 0, vertical: vertical)
        case .none:
            let found = try await orientationFromPage(crops, tallMain: tallMain)
            (orientation, tested, evidence) = (found.orientation, found.readings, found.evidence)
            // A turned page is read again turned upright (`PPOCRPipeline`): its lines are not read here.
            if orientation.rotation != .upright { return (orientation, [], evidence) }
        }
        let readings = try await readAll(crops, page: orientation, done: tested)
        return (orientation, readings, evidence)
    }

    /// How the page is turned, from its lines: the shape of its lines gives the text turn's parity; the classifier's
    /// votes propose a half turn more (`upsideDownVote`); the longest main lines (`testedLines`) are read as the
    /// votes say and, when the votes propose a half turn or that reading is mostly unsure, the other way too, and
    /// the half turn is taken only when its reading reads more characters confidently (`RotationEvidence`); then
    /// `PPOCRWritingTest` on the lines read as taken says whether the writing is vertical. Returns those lines'
    /// readings (by crop index) and the evidence (its `readings`: the text turns tried, each labelled with the
    /// rotation it stands for in the writing taken).
    private func orientationFromPage(_ crops: [RGBImage], tallMain: Bool) async throws
        -> (orientation: PPOCRPageOrientation, readings: [Int: RecognisedText], evidence: PageResult.RotationEvidence) {
        let vote = try await upsideDownVote(crops, tallMain: tallMain)
        var orientation = PPOCRPageOrientation.fromVotes(tallMain: tallMain, upsideDown: vote)
        var evidence = PageResult.RotationEvidence(upsideDown: vote)
        let tested = Self.longestMain(crops, page: orientation)
        var readings = try await readLines(tested, of: crops, turns: orientation.mainTurns)
        let uprightTurn = tallMain ? 1 : 0
        let voted = Self.tally(readings)
        var tried: [(textTurn: Int, tally: (characters: Int, confident: Int))] = tested.isEmpty ? [] : [(orientation.textTurn, voted)]
        if !tested.isEmpty, orientation.textTurn != uprightTurn || 2 * voted.confident < voted.characters {
            let other = (orientation.textTurn + 2) % 4
            let otherReadings = try await readLines(tested, of: crops, turns: other)
            let otherTally = Self.tally(otherReadings)
            tried.append((other, otherTally))
            // A half turn away from upright needs the reading with more characters read confidently, and most of its
            // characters so read (a page the model cannot read, or cannot read for noise, is not turned on a few
            // characters); upright keeps ties.
            let (turned, upright) = orientation.textTurn == uprightTurn ? (otherTally, voted) : (voted, otherTally)
            let turn = turned.confident > upright.confident && 2 * turned.confident >= turned.characters
            if turn == (orientation.textTurn == uprightTurn) {
                orientation.textTurn = other
                readings = otherReadings
            }
        }
        let test = try await writingTest(tested, of: crops, readings: readings, page: orientation)
        evidence.writingVotes = test.votes
        if let vertical = test.vertical { orientation.vertical = vertical }
        evidence.readings = tried.map { turn, t in
            PageResult.RotationEvidence.Reading(rotation: PPOCRPageOrientation(textTurn: turn, vertical: orientation.vertical).rotation.degrees,
                                                lines: tested.count, characters: t.characters, confident: t.confident)
        }
        return (orientation, readings, evidence)
    }

    /// Characters read, and read at `RotationEvidence.confidentAt` or more, over `readings`.
    static func tally(_ readings: [Int: RecognisedText]) -> (characters: Int, confident: Int) {
        readings.values.reduce((0, 0)) { t, r in
            (t.0 + r.characters.count, t.1 + r.characters.filter { $0.confidence >= PageResult.RotationEvidence.confidentAt }.count)
        }
    }

    /// The longest main lines of `page` (at most `testedLines`), longest first.
    static func longestMain(_ crops: [RGBImage], page: PPOCRPageOrientation) -> [Int] {
        let main = crops.indices.filter { page.shape(width: crops[$0].width, height: crops[$0].height) == .main }
        let length = { (i: Int) in max(crops[i].width, crops[i].height) }
        return Array(main.sorted { (length($0), $1) > (length($1), $0) }.prefix(testedLines))
    }

    /// The crops `lines` turned `turns` quarter turns counter-clockwise and read, by crop index.
    private func readLines(_ lines: [Int], of crops: [RGBImage], turns: Int) async throws -> [Int: RecognisedText] {
        let texts = try await readTurned(lines.map { (crops[$0], turns) })
        return Dictionary(uniqueKeysWithValues: zip(lines, texts))
    }

    /// The length-weighted mean upside-down probability of the longest main lines, turned as their shape says;
    /// nil without a classifier or main lines.
    private func upsideDownVote(_ crops: [RGBImage], tallMain: Bool) async throws -> Double? {
        guard let classifier else { return nil }
        let probe = PPOCRPageOrientation(textTurn: tallMain ? 1 : 0, vertical: tallMain)
        let main = crops.indices.filter { probe.shape(width: crops[$0].width, height: crops[$0].height) == .main }
        let length: @Sendable (Int) -> Int = { i in max(crops[i].width, crops[i].height) }
        let voters = main.sorted { (length($0), $1) > (length($1), $0) }.prefix(Self.voters)
        guard !voters.isEmpty else { return nil }
        let turns = probe.mainTurns
        let probabilities = try await classifier.upsideDownProbabilities(
            voters.map { crops[$0].turnedCounterClockwise(quarterTurns: turns) }, store: store, limit: limit)
        let votes = zip(voters, probabilities).map { i, p in (p: Double(p), weight: Double(length(i))) }
        let total = votes.reduce(0) { $0 + $1.weight }
        return total > 0 ? votes.reduce(0) { $0 + $1.p * $1.weight } / total : nil
    }

    /// `PPOCRWritingTest` on the lines `tested` (read as `page` turns its main lines: `readings`): whether the
    /// page is written vertically (the majority of the lines that vote; nil when fewer than two could vote: one
    /// line of Latin and digits reads its cells turned nearly as well, and a one-line image is far more often
    /// upright than turned), and the votes (nil when none).
    private func writingTest(_ tested: [Int], of crops: [RGBImage], readings: [Int: RecognisedText], page: PPOCRPageOrientation) async throws
        -> (vertical: Bool?, votes: PageResult.RotationEvidence.WritingVotes?) {
        let turns = page.mainTurns
        let results = try await boundedMap(tested, limit: limit) { i -> Bool? in
            let line = crops[i].turnedCounterClockwise(quarterTurns: turns)
            guard let text = readings[i], text.characters.count >= 4, let confidence = text.confidence,
                  confidence >= PPOCRWritingTest.minLineConfidence, let cells = PPOCRWritingTest.cells(line, reading: text) else { return nil }
            let cellText = try await self.reader.read(PixelBox(x1: 0, y1: 0, x2: cells.width, y2: cells.height), of: cells, store: self.store)
            let compared = PPOCRWritingTest.windowConfidence(text) ?? confidence
            return PPOCRWritingTest.isVertical(line: compared, cells: cellText.confidence ?? 0)
        }
        let votes = results.compactMap { $0 }
        let vertical = votes.filter { $0 }.count
        let tally = votes.isEmpty ? nil : PageResult.RotationEvidence.WritingVotes(vertical: vertical, horizontal: votes.count - vertical)
        // One line, none, or a tie: keep the default (the lines' shapes, upright).
        guard votes.count >= 2, 2 * vertical != votes.count else { return (nil, tally) }
        return (2 * vertical > votes.count, tally)
    }

    /// Most main lines `PPOCRWritingTest` reads.
    static let testedLines = 3

    /// Every line turned as the page says and read; those in `done` (already read upright) kept. Main lines turn
    /// the page's way; lines across them one quarter more or less, and then 180° when the classifier says so
    /// (PP-OCR's rule, line by line); near-square lines on a page of odd text turn are read both ways, the more
    /// confident reading kept. The classifier and the reader run in batches (`LineReader.read(_:store:limit:)`),
    /// at most `limit` runs in flight; the reader counts the lines it reads (`LineProgress`).
    private func readAll(_ crops: [RGBImage], page: PPOCRPageOrientation, done: [Int: RecognisedText]) async throws -> [Reading] {
        let shapes = crops.map { page.shape(width: $0.width, height: $0.height) }
        var turns = crops.indices.map { shapes[$0] == .across && done[$0] == nil ? page.acrossTurns : page.mainTurns }
        let toRead = crops.indices.filter { done[$0] == nil }
        let across = toRead.filter { shapes[$0] == .across }
        if let classifier, !across.isEmpty {
            let flips = try await classifier.upsideDown(across.map { crops[$0].turnedCounterClockwise(quarterTurns: turns[$0]) },
                                                        store: store, limit: limit)
            for (k, i) in across.enumerated() where flips[k] { turns[i] += 2 }
        }
        var texts = done
        for (i, text) in zip(toRead, try await readTurned(toRead.map { (crops[$0], turns[$0]) })) { texts[i] = text }
        if page.textTurn % 2 == 1 {
            let squares = toRead.filter { shapes[$0] == .square }
            let others = try await readTurned(squares.map { (crops[$0], page.acrossTurns) })
            for (i, other) in zip(squares, others) where (other.confidence ?? -1) > (texts[i]?.confidence ?? -1) {
                texts[i] = other
                turns[i] = page.acrossTurns
            }
        }
        return crops.indices.map { i in
            Reading(text: texts[i] ?? .empty, quarterTurns: done[i] == nil ? turns[i] % 4 : page.mainTurns,
                    cropWidth: crops[i].width, cropHeight: crops[i].height)
        }
    }

    /// `lines` (each crop with its quarter turns counter-clockwise) turned and read in batches.
    private func readTurned(_ lines: [(crop: RGBImage, turns: Int)]) async throws -> [RecognisedText] {
        guard !lines.isEmpty else { return [] }
        return try await reader.read(lines.map { LineRegion(wholeOf: $0.crop.turnedCounterClockwise(quarterTurns: $0.turns)) },
                                     store: store, limit: limit)
    }

    /// Where reading starts and ends along a line cut from `quad` (corners clockwise from its top-left, in the page
    /// as given) and turned `quarterTurns` counter-clockwise: the middles of the edges the turned crop's left and
    /// right sides come from.
    static func readingAxis(of quad: Quad, quarterTurns: Int) -> (start: Point, end: Point) {
        let p = quad.points
        func mid(_ a: Int, _ b: Int) -> Point { Point(x: (p[a].x + p[b].x) / 2, y: (p[a].y + p[b].y) / 2) }
        switch (quarterTurns % 4 + 4) % 4 {
        case 1: return (mid(0, 1), mid(3, 2))   // top edge → bottom edge
        case 2: return (mid(1, 2), mid(0, 3))   // right edge → left edge
        case 3: return (mid(3, 2), mid(0, 1))   // bottom edge → top edge
        default: return (mid(0, 3), mid(1, 2))  // left edge → right edge
        }
    }
}
