import Foundation
import Testing
@testable import KotenOCRCorpus

@Suite("Corpus: the correction layer")
struct CorpusProofreadingTests {
    @Test("a reading is stored as read; a correction sits beside it, in the history, and moves the revision")
    func correctionBesideReading() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        let outcome = try store.storeReading(CorpusFixtures.reading(["氨送子", "円商形", "せす"]), job: "j", page: 1)
        #expect(outcome.lineIDs == ["l1", "l2", "l3"])
        var page = try store.page(job: "j", page: 1)
        #expect(page.revision == 1 && page.state == .unread)
        #expect(page.lines.map(\.box.x) == [900, 840, 780])
        #expect(page.lines.first?.polygon == [[900, 100], [940, 100]])

        page = try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", "気送子"), .deleted(id: "l3", true)],
                                by: "127.0.0.1", time: Date(timeIntervalSince1970: 1000))
        #expect(page.revision == 2)
        #expect(page.state == .inProgress)
        #expect(page.currentText == ["気送子", "円商形"])
        #expect(page.modelText == ["氨送子", "円商形", "せす"])
        let l1 = try #require(page.lines.first)
        #expect(l1.corrected && l1.modelText == "氨送子" && l1.correctedOn == "氨送子")
        #expect(try store.page(job: "j", page: 1) == page)

        let history = try store.history(job: "j", page: 1)
        #expect(history.map(\.change) == [.text, .deleted, .state])
        #expect(history[0].before == "氨送子" && history[0].after == "気送子" && history[0].who == "127.0.0.1")
        #expect(history.allSatisfy { $0.revision == 2 && $0.time == Date(timeIntervalSince1970: 1000) })

        // The engine's own text again removes the correction (still in the history).
        page = try store.update(job: "j", page: 1, ifRevision: 2, edits: [.text(id: "l1", "氨送子")], by: "b")
        #expect(page.lines[0].corrected == false && page.lines[0].correctedOn == nil)
        #expect(try store.history(job: "j", page: 1).count == 4)
        // Nothing changed: no new revision.
        #expect(try store.update(job: "j", page: 1, ifRevision: 3, edits: [.text(id: "l2", "円商形")], by: "b").revision == 3)
    }

    @Test("an update with a stale revision is refused (412) and writes nothing")
    func staleRevision() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["一", "二"]), job: "j", page: 1)
        _ = try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", "壱")], by: "tab 1")
        #expect(throws: CorpusError.stale(current: 2)) {
            try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", "弌"), .text(id: "l2", "弐")],
                             state: .proofread, by: "tab 2")
        }
        let page = try store.page(job: "j", page: 1)
        #expect(page.currentText == ["壱", "二"] && page.revision == 2 && page.state == .inProgress)
        #expect(try store.history(job: "j", page: 1).allSatisfy { $0.who == "tab 1" })
        #expect(throws: CorpusError.pageNotFound(job: "j", page: 2)) {
            try store.update(job: "j", page: 2, ifRevision: 1, edits: [], by: "x")
        }
    }

    @Test("unknown line ids, text over 10,000 characters and control characters are refused (422), nothing written")
    func validation() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["一", "二"]), job: "j", page: 1)
        let long = String(repeating: "あ", count: 10_001)
        do {
            _ = try store.update(job: "j", page: 1, ifRevision: 1,
                                 edits: [.text(id: "l1", "よし"), .text(id: "l9", "x"), .text(id: "l2", long),
                                         .text(id: "l1", "改\n行"), .deleted(id: "a1", true)], by: "x")
            Issue.record("no error")
        } catch let CorpusError.invalid(problems) {
            #expect(problems == [LineProblem(line: "l9", reason: .unknownLine), LineProblem(line: "a1", reason: .unknownLine),
                                 LineProblem(line: "l2", reason: .tooLong(10_001)),
                                 LineProblem(line: "l1", reason: .controlCharacter(0x0A))])
        }
        #expect(try store.page(job: "j", page: 1).currentText == ["一", "二"])
        #expect(try store.history(job: "j", page: 1).isEmpty)
        for bad in ["\u{0}", "\t", "\u{7F}", "\u{9F}"] {
            #expect(throws: CorpusError.self) {
                try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", "a\(bad)")], by: "x")
            }
        }
        // 10,000 characters (grapheme clusters, a kana with its voicing mark being one) are allowed.
        let limit = String(repeating: "か\u{3099}", count: 10_000)
        #expect(try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", limit)], by: "x").lines[0].text == limit)
    }

    @Test("a re-read keeps every correction and its line id, and marks a corrected line whose reading changed or went")
    func rereadKeepsCorrections() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["いろは", "にほへと", "ちりぬる", "をわか"]), job: "j", page: 1)
        _ = try store.update(job: "j", page: 1, ifRevision: 1,
                             edits: [.text(id: "l1", "イロハ"), .text(id: "l2", "ニホヘト"), .deleted(id: "l3", true)], by: "a")
        // The new reading: boxes moved by 8 px, l1 read the same, l2 read differently, l3 gone, a new line.
        var lines = CorpusFixtures.reading(["いろは", "にほへど", "をわか"], shift: 8).lines
        lines[2].box.x = 720 + 8
        lines.append(EngineLine(text: "よたれそ", box: CorpusBox(x: 100, y: 100, width: 40, height: 1000), orientation: "vertical"))
        let outcome = try store.storeReading(EngineReading(width: 1000, height: 1200, lines: lines), job: "j", page: 1)
        #expect(outcome.lineIDs == ["l1", "l2", "l4", "l5"])
        #expect(outcome.markedForReview == ["l2", "l3"])
        #expect(outcome.revision == 3)

        let page = try store.page(job: "j", page: 1)
        let byID = Dictionary(uniqueKeysWithValues: page.lines.map { ($0.id, $0) })
        #expect(byID["l1"]?.text == "イロハ" && byID["l1"]?.review == nil)
        #expect(byID["l2"]?.text == "ニホヘト" && byID["l2"]?.modelText == "にほへど" && byID["l2"]?.review == .modelChanged)
        #expect(byID["l2"]?.correctedOn == "にほへと")
        #expect(byID["l3"]?.deleted == true && byID["l3"]?.review == .lineGone && byID["l3"]?.inLatestReading == false)
        #expect(page.lines.map(\.id) == ["l1", "l2", "l3", "l4", "l5"])
        #expect(page.currentText == ["イロハ", "ニホヘト", "をわか", "よたれそ"])
        #expect(page.modelText == ["いろは", "にほへど", "をわか", "よたれそ"])
        let reread = try store.history(job: "j", page: 1).filter { $0.change == .reread }
        #expect(reread.map(\.line) == ["l2", "l3"] && reread.allSatisfy { $0.who == "engine" })
        #expect(reread[0].before == "にほへと" && reread[0].after == "にほへど")

        // Looked at again with its text kept: the mark goes; the engine's reading it was made on is now the new one.
        let looked = try store.update(job: "j", page: 1, ifRevision: 3, edits: [.text(id: "l2", "ニホヘト")], by: "a")
        #expect(looked.lines[1].review == nil && looked.lines[1].correctedOn == "にほへど")
        #expect(try store.history(job: "j", page: 1).last?.change == .reviewed)
        // A third reading as the first: l3 comes back with its id, the mark gone (its text again the one corrected on).
        let third = try store.storeReading(CorpusFixtures.reading(["いろは", "にほへと", "ちりぬる", "をわか"]), job: "j", page: 1)
        #expect(third.lineIDs == ["l1", "l2", "l3", "l4"])
        #expect(try store.page(job: "j", page: 1).lines.first { $0.id == "l3" }?.review == nil)
    }

    @Test("a line drawn by a user is added in reading order, read, corrected and counted")
    func addedLine() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["右", "中", "左"]), job: "j", page: 1)
        #expect(throws: CorpusError.stale(current: 1)) {
            try store.addLine(AddedLine(box: CorpusBox(x: 0, y: 0, width: 1, height: 1), modelText: "x"), job: "j", page: 1,
                              ifRevision: 0, by: "a")
        }
        let (page, id) = try store.addLine(AddedLine(box: CorpusBox(x: 870, y: 100, width: 40, height: 900),
                                                     orientation: "vertical", modelText: "間"),
                                           job: "j", page: 1, ifRevision: 1, by: "a")
        #expect(id == "a1")
        #expect(page.lines.map(\.id) == ["l1", "a1", "l2", "l3"])
        #expect(page.currentText == ["右", "間", "中", "左"] && page.modelText == ["右", "中", "左"])
        #expect(page.lines[1].added && page.state == .inProgress && page.revision == 2)
        let corrected = try store.update(job: "j", page: 1, ifRevision: 2, edits: [.text(id: "a1", "閒")], by: "a")
        #expect(corrected.lines[1].text == "閒" && corrected.lines[1].modelText == "間" && corrected.lines[1].corrected)
        #expect(try store.history(job: "j", page: 1).map(\.change) == [.added, .state, .text])
    }

    @Test("the job's figures: pages proofread, lines corrected, characters and the engine's CER on proofread pages")
    func figures() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["氨送子", "円商形", "ゴミ"]), job: "j", page: 1)
        try store.storeReading(CorpusFixtures.reading(["あいう"]), job: "j", page: 2)
        _ = try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", "気送子"), .text(id: "l2", "円筒形"),
                                                                      .deleted(id: "l3", true)], state: .proofread, by: "a")
        _ = try store.addLine(AddedLine(box: CorpusBox(x: 0, y: 100, width: 40, height: 100), orientation: "vertical",
                                        modelText: "えお"), job: "j", page: 1, ifRevision: 2, by: "a")
        _ = try store.update(job: "j", page: 2, ifRevision: 1, edits: [.text(id: "l1", "あいえ")], by: "a")
        let f = try store.figures(job: "j")
        // Page 1 only: 気送子 (1 substitution), 円筒形 (1), ゴミ deleted (2 insertions by the engine), えお added (2 missed).
        #expect(f.pagesProofread == 1 && f.linesCorrected == 5 && f.characters == 8)
        #expect(f.modelCER == 6.0 / 8.0)
        #expect(try store.figures(job: "none") == ProofreadingFigures(pagesProofread: 0, linesCorrected: 0, characters: 0, modelCER: nil))
    }

    @Test("8 writers on one page, each retrying on 412: no update lost")
    func concurrentWriters() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["始"]), job: "j", page: 1)
        let writers = 8, rounds = 12
        let stale = Counter()
        // In the first round every writer reads the page before any writes: seven of the eight answers are 412.
        let barrier = Barrier(parties: writers)
        // Threads of their own (a dispatch pool may run fewer than eight at once on two cores).
        let finished = DispatchGroup()
        for w in 0..<writers {
            finished.enter()
            Thread {
                defer { finished.leave() }
                for r in 0..<rounds {
                    var first = r == 0
                    while true {
                        do {
                            let page = try store.page(job: "j", page: 1)
                            if first { barrier.arrive(); first = false }
                            _ = try store.update(job: "j", page: 1, ifRevision: page.revision,
                                                 edits: [.text(id: "l1", page.lines[0].text + "|\(w).\(r)")], by: "w\(w)")
                            break
                        } catch CorpusError.stale {
                            stale.add()
                        } catch {
                            Issue.record("writer \(w): \(error)")
                            return
                        }
                    }
                }
            }.start()
        }
        finished.wait()
        let page = try store.page(job: "j", page: 1)
        let parts = page.lines[0].text.split(separator: "|").dropFirst().map(String.init)
        #expect(Set(parts) == Set((0..<writers).flatMap { w in (0..<rounds).map { "\(w).\($0)" } }))
        #expect(parts.count == writers * rounds)
        #expect(page.revision == 1 + writers * rounds)
        #expect(try store.history(job: "j", page: 1).filter { $0.change == .text }.count == writers * rounds)
        #expect(stale.value >= writers - 1)
        print("CORPUS 8 writers × \(rounds): \(stale.value) stale answers retried")
    }
}

/// Threads wait in `arrive` until `parties` of them have arrived.
final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(parties: Int) { waiting = parties }

    func arrive() {
        condition.lock()
        waiting -= 1
        if waiting <= 0 { condition.broadcast() }
        while waiting > 0 { condition.wait() }
        condition.unlock()
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
