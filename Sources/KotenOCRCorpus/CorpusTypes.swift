import Foundation

// The corpus wing's vocabulary (docs/corpus.md, "The data model"): what goes in (an engine's reading of a page),
// what comes out (a page with its correction layer, its history, the job's proofreading figures), and the errors.

/// An axis-aligned box in page pixels.
public struct CorpusBox: Sendable, Equatable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Intersection over union with `other` (0 when either is empty).
    func overlap(_ other: CorpusBox) -> Double {
        let w = min(x + width, other.x + other.width) - max(x, other.x)
        let h = min(y + height, other.y + other.height) - max(y, other.y)
        guard w > 0, h > 0 else { return 0 }
        let inter = Double(w) * Double(h)
        let union = Double(width) * Double(height) + Double(other.width) * Double(other.height) - inter
        return union > 0 ? inter / union : 0
    }

    /// The smallest box holding this one and `other`.
    func union(_ other: CorpusBox) -> CorpusBox {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return CorpusBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// One line of an engine's reading, as the engine gave it (in page pixels).
public struct EngineLine: Sendable, Equatable {
    /// The recogniser's text.
    public var text: String
    public var box: CorpusBox
    /// Outline, corners clockwise from the top-left, as `[x, y]` pairs; may be empty.
    public var polygon: [[Double]]
    /// "vertical" or "horizontal" (KotenOCRKit's `PageResult.TextLine.orientation`), nil when unknown.
    public var orientation: String?
    /// Mean character probability in 0…1, nil when the recogniser gave none.
    public var confidence: Double?

    public init(text: String, box: CorpusBox, polygon: [[Double]] = [], orientation: String? = nil,
                confidence: Double? = nil) {
        self.text = text; self.box = box; self.polygon = polygon; self.orientation = orientation
        self.confidence = confidence
    }
}

/// An engine's reading of one page: its lines in reading order and the page's size in pixels (upright).
public struct EngineReading: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var lines: [EngineLine]

    public init(width: Int, height: Int, lines: [EngineLine]) {
        self.width = width; self.height = height; self.lines = lines
    }
}

/// Where a page is in proofreading.
public enum PageState: String, Sendable, Codable, CaseIterable {
    case unread, inProgress, proofread
}

/// Why a corrected line asks to be looked at again after a re-read (docs/corpus.md, "Re-reads").
public enum ReviewMark: String, Sendable, Codable {
    /// The engine's new reading of the line differs from the one the correction was made on.
    case modelChanged
    /// The engine's new reading has no line there any more; the correction is kept with its last outline.
    case lineGone
}

/// A line of a page as the proofreader sees it: the engine's reading and the correction layer over it.
public struct CorpusLine: Sendable, Equatable {
    /// Stable id within the page: `l<n>` for the engine's lines, `a<n>` for lines a user added.
    public var id: String
    /// The current text: the correction if any, else the engine's.
    public var text: String
    /// The engine's text (for an added line: the engine's reading of the drawn region).
    public var modelText: String
    /// The text was corrected (differs from `modelText` by a user's edit).
    public var corrected: Bool
    /// Marked as not text: left out of the page's current text.
    public var deleted: Bool
    /// Added by a user (a region drawn on the image).
    public var added: Bool
    /// The line is in the engine's latest reading (false for added lines, and for a corrected line a re-read
    /// no longer found: `review` is then `lineGone` until the line is looked at, and `modelText` is empty).
    public var inLatestReading: Bool
    /// Set when a re-read changed or lost the line this correction was made on.
    public var review: ReviewMark?
    /// The engine's model text the correction was made on, when the line is corrected or deleted.
    public var correctedOn: String?
    public var box: CorpusBox
    public var polygon: [[Double]]
    public var orientation: String?
    public var confidence: Double?
}

/// A page: the engine's latest reading with the correction layer applied, in reading order.
public struct CorpusPage: Sendable, Equatable {
    public var job: String
    /// 1-based page number within the job.
    public var page: Int
    public var width: Int
    public var height: Int
    public var state: PageState
    /// Incremented by every change (edit, added line, state, re-read); the HTTP ETag.
    public var revision: Int
    /// Every line in reading order, deleted ones included (`CorpusLine.deleted`).
    public var lines: [CorpusLine]

    /// The page's current text, one string per line: corrections applied, deleted lines out, added lines in.
    public var currentText: [String] { lines.filter { !$0.deleted }.map(\.text) }
    /// The engine's text, one string per line of its latest reading (no added line, nothing deleted).
    public var modelText: [String] { lines.filter(\.inLatestReading).map(\.modelText) }
}

/// A change to one line in an update.
public enum LineEdit: Sendable, Equatable {
    /// The line's text becomes `text`; the engine's own text removes the correction.
    case text(id: String, String)
    /// The line is marked as not text (`true`) or as text again (`false`).
    case deleted(id: String, Bool)

    var lineID: String {
        switch self { case .text(let id, _), .deleted(let id, _): return id }
    }
}

/// A line a user adds to a page: the region drawn and the engine's reading of it.
public struct AddedLine: Sendable, Equatable {
    public var box: CorpusBox
    public var polygon: [[Double]]
    public var orientation: String?
    /// The engine's reading of the region (the line's `modelText`).
    public var modelText: String
    public var confidence: Double?

    public init(box: CorpusBox, polygon: [[Double]] = [], orientation: String? = nil, modelText: String,
                confidence: Double? = nil) {
        self.box = box; self.polygon = polygon; self.orientation = orientation; self.modelText = modelText
        self.confidence = confidence
    }
}

/// One entry of a page's history (oldest first): what changed, when, by whom.
public struct HistoryEntry: Sendable, Equatable {
    public enum Change: String, Sendable, Codable {
        /// A line's text: `before` and `after` are the texts.
        case text
        /// A line marked as not text (`before`: its text) or as text again (`restored`, `after`: its text).
        case deleted, restored
        /// A line added by a user (`after`: the engine's reading of it).
        case added
        /// The page's state (`before`, `after`: `PageState` raw values).
        case state
        /// A corrected line looked at again after a re-read marked it, its text kept.
        case reviewed
        /// A re-read changed (`before`/`after`: the old and new model text) or lost (`after` nil) a corrected
        /// line's reading: the correction stays, the line is marked (`CorpusLine.review`). `who` is "engine".
        case reread
    }

    public var time: Date
    /// The page's revision this change made.
    public var revision: Int
    /// The line's id; nil for a change of the page (`state`).
    public var line: String?
    public var change: Change
    public var before: String?
    public var after: String?
    /// The client's address or token name given with the change.
    public var who: String
}

/// A job's proofreading figures (issue 36): how much was proofread and how well the engine read it.
public struct ProofreadingFigures: Sendable, Equatable {
    /// Pages in state `proofread`.
    public var pagesProofread: Int
    /// Lines whose current text differs from the engine's reading, on every page: corrected, deleted or added.
    public var linesCorrected: Int
    /// Unicode scalars of the current text of the proofread pages (the reference the CER is measured against).
    public var characters: Int
    /// The engine's character error rate on the proofread pages: Levenshtein distance over Unicode scalars
    /// between each line's model text and its current text (a deleted line's reference is empty, an added line's
    /// model text is empty), summed, over `characters`. Nil when no proofread page has text.
    public var modelCER: Double?

    public init(pagesProofread: Int = 0, linesCorrected: Int = 0, characters: Int = 0, modelCER: Double? = nil) {
        self.pagesProofread = pagesProofread; self.linesCorrected = linesCorrected; self.characters = characters
        self.modelCER = modelCER
    }
}

/// What is wrong with one line of an update (HTTP 422).
public struct LineProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case unknownLine
        /// More than `CorpusStore.maxLineCharacters` characters (the count given).
        case tooLong(Int)
        /// A control character (Unicode category Cc: U+0000–001F, U+007F–009F, line breaks and tabs included).
        case controlCharacter(UInt32)
    }

    public var line: String
    public var reason: Reason

    public var description: String {
        switch reason {
        case .unknownLine: return "line \(line): no such line on this page"
        case .tooLong(let n): return "line \(line): \(n) characters, more than \(CorpusStore.maxLineCharacters)"
        case .controlCharacter(let c): return "line \(line): control character U+\(String(format: "%04X", c))"
        }
    }
}

/// The corpus wing's errors. Each names what failed and why in one line.
public enum CorpusError: Error, Equatable, CustomStringConvertible {
    /// The database file is damaged or not a database: it is never reset; restore a backup.
    case damaged(path: String, reason: String)
    /// The file is an SQLite database of something else.
    case foreign(path: String, reason: String)
    /// Made by a newer KotenOCR (schema version `found`, this one reads up to `supported`).
    case newerSchema(path: String, found: Int, supported: Int)
    /// No such job or page.
    case pageNotFound(job: String, page: Int)
    /// The caller's revision is not the page's (`current`): nothing was written (HTTP 412).
    case stale(current: Int)
    /// The update names an unknown line or carries text that cannot be stored: nothing was written (HTTP 422).
    case invalid([LineProblem])
    /// The disk (or the database's page limit) is full: nothing was written.
    case full(reason: String)
    /// Any other failure of the storage, with SQLite's message.
    case storage(reason: String)
    /// A search query that folds to nothing.
    case emptyQuery

    public var description: String {
        switch self {
        case .damaged(let p, let r): return "\(p): the corpus database is damaged (\(r)); restore a backup"
        case .foreign(let p, let r): return "\(p): not a KotenOCR corpus database (\(r))"
        case .newerSchema(let p, let f, let s):
            return "\(p): corpus database schema \(f) is newer than this KotenOCR's (\(s))"
        case .pageNotFound(let j, let n): return "job \(j) has no page \(n)"
        case .stale(let c): return "the page changed since it was read (its revision is now \(c))"
        case .invalid(let problems): return problems.map(\.description).joined(separator: "; ")
        case .full(let r): return "the disk is full: nothing was written (\(r))"
        case .storage(let r): return "corpus storage failed: \(r)"
        case .emptyQuery: return "the search query is empty"
        }
    }
}
