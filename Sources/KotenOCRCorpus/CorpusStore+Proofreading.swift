import Foundation

extension CorpusStore {
    /// Applies a proofreader's changes to a page, if its revision is still `ifRevision` (compare-and-swap in one
    /// transaction). `edits` are applied in order; `state` (nil: unchanged) is set after them, and the first edit
    /// of an `unread` page makes it `inProgress`. Every change is a row of the page's history with `time` and
    /// `who` (the client's address or token name); the page's revision goes up by one when anything changed.
    /// Returns the page as it is now.
    ///
    /// Throws `CorpusError.pageNotFound`; `.stale(current:)` when the revision moved on (HTTP 412);
    /// `.invalid` for an unknown line id, a text over `maxLineCharacters` characters or with a control character
    /// (HTTP 422); `.full` when the disk is full. Nothing is written when it throws.
    public func update(job: String, page: Int, ifRevision: Int, edits: [LineEdit], state: PageState? = nil,
                       by who: String, time: Date = Date()) throws -> CorpusPage {
        try write { db in
            try PageWriter(db: db, folding: folding).update(job: job, page: page, ifRevision: ifRevision, edits: edits,
                                                            state: state, who: who, time: time)
        }
    }

    /// Adds a line a user drew (`line`: the region and the engine's reading of it) to a page whose revision is
    /// still `ifRevision`; returns the page and the new line's id (`a<n>`). Errors as `update`.
    public func addLine(_ line: AddedLine, job: String, page: Int, ifRevision: Int, by who: String,
                        time: Date = Date()) throws -> (page: CorpusPage, id: String) {
        try write { db in
            try PageWriter(db: db, folding: folding).add(line, job: job, page: page, ifRevision: ifRevision, who: who,
                                                         time: time)
        }
    }

    /// The job's proofreading figures (`ProofreadingFigures`); all zero (CER nil) for an unknown job.
    public func figures(job: String) throws -> ProofreadingFigures {
        try read { db in
            let numbers = try Self.pageNumbers(db, job: job)
            var figures = ProofreadingFigures(pagesProofread: 0, linesCorrected: 0, characters: 0, modelCER: nil)
            var distance = 0
            let assembly = PageAssembly(db: db)
            for n in numbers {
                guard let row = try PageRow.find(db, job: job, page: n) else { continue }
                let page = try assembly.page(row)
                figures.linesCorrected += page.lines.filter { $0.corrected || $0.deleted || $0.added }.count
                guard page.state == .proofread else { continue }
                figures.pagesProofread += 1
                for line in page.lines {
                    let reference = line.deleted ? "" : line.text
                    let hypothesis = line.inLatestReading ? line.modelText : ""
                    figures.characters += reference.unicodeScalars.count
                    distance += EditDistance.scalars(hypothesis, reference)
                }
            }
            if figures.characters > 0 { figures.modelCER = Double(distance) / Double(figures.characters) }
            return figures
        }
    }
}

/// Levenshtein distance (insertions, deletions, substitutions of one each) over Unicode scalars.
enum EditDistance {
    static func scalars(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
