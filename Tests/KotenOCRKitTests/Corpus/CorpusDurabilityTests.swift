import Foundation
import Testing
@testable import KotenOCRCorpus

@Suite("Corpus: durability")
struct CorpusDurabilityTests {
    /// A corpus of `pages` pages of five lines each, closed.
    private func corpus(pages: Int = 1) throws -> URL {
        let url = try CorpusFixtures.databaseURL()
        let store = try CorpusStore(url: url)
        for n in 1...pages {
            try store.storeReading(CorpusFixtures.reading((1...5).map { "第\(n)頁の\($0)行目" }), job: "j", page: n)
        }
        store.close()
        return url
    }

    @Test("a damaged file, another program's database or a newer schema is refused at open and left as it was")
    func refusedAtOpen() throws {
        // Not a database at all.
        let garbage = try CorpusFixtures.databaseURL("garbage")
        try Data(repeating: 0x41, count: 8192).write(to: garbage)
        #expect { try CorpusStore(url: garbage) } throws: { e in
            guard case CorpusError.damaged(let path, _) = e else { return false }
            return path == garbage.path
        }
        #expect(try Data(contentsOf: garbage) == Data(repeating: 0x41, count: 8192))

        // A corpus whose header was overwritten.
        let header = try corpus()
        var bytes = try Data(contentsOf: header)
        bytes.replaceSubrange(0..<16, with: Data(repeating: 0, count: 16))
        try bytes.write(to: header)
        #expect(throws: CorpusError.self) { try CorpusStore(url: header) }
        #expect(try Data(contentsOf: header) == bytes)

        // A corpus with one of its b-tree pages damaged in the middle of the file: found by quick_check.
        let middle = try corpus(pages: 40)
        bytes = try Data(contentsOf: middle)
        let pageSize = 4096
        let victim = try #require((2..<(bytes.count / pageSize)).first { [0x0D, 0x05].contains(bytes[$0 * pageSize]) && $0 > 3 })
        bytes.replaceSubrange((victim * pageSize + 8)..<(victim * pageSize + 400), with: Data(repeating: 0xFF, count: 392))
        try bytes.write(to: middle)
        #expect { try CorpusStore(url: middle) } throws: { e in
            guard case CorpusError.damaged(_, let reason) = e else { return false }
            print("CORPUS damaged page \(victim): \(reason.prefix(120))")
            return true
        }
        #expect(try Data(contentsOf: middle) == bytes)

        // Another program's SQLite database.
        let foreign = try CorpusFixtures.databaseURL("foreign")
        let other = try SQLiteConnection(path: foreign.path, create: true)
        try other.execute("CREATE TABLE notes(x); INSERT INTO notes VALUES (1)")
        other.close()
        let before = try Data(contentsOf: foreign)
        #expect { try CorpusStore(url: foreign) } throws: { e in
            if case CorpusError.foreign = e { return true }
            return false
        }
        #expect(try Data(contentsOf: foreign) == before)

        // A corpus of a newer KotenOCR.
        let newer = try corpus()
        let db = try SQLiteConnection(path: newer.path, create: false)
        try db.execute("PRAGMA user_version = 99")
        db.close()
        #expect(throws: CorpusError.newerSchema(path: newer.path, found: 99, supported: CorpusSchema.version)) {
            try CorpusStore(url: newer)
        }
    }

    @Test("a write past the database's page limit is refused as a full disk, the page as it was")
    func fullAtPageLimit() throws {
        let store = try CorpusStore(url: try corpus())
        let long = String(repeating: "長", count: 10_000)
        try store.limitPages(try store.pageCount().pages)
        #expect { try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", long)], by: "a") } throws: { e in
            guard case CorpusError.full(let reason) = e else { return false }
            print("CORPUS full: \(reason)")
            return true
        }
        let page = try store.page(job: "j", page: 1)
        #expect(page.revision == 1 && page.lines[0].text == "第1頁の1行目" && !page.lines[0].corrected)
        #expect(try store.history(job: "j", page: 1).isEmpty)
        try store.limitPages(nil)
        #expect(try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", long)], by: "a").lines[0].text == long)
    }

    @Test("a write on a full file system (a 1 MB tmpfs) is refused with a clear error, the page as it was",
          .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func fullFileSystem() throws {
        let fs = try SmallFileSystem(megabytes: 1)
        defer { fs.unmount() }
        let url = fs.directory.appendingPathComponent("corpus.sqlite")
        let store = try CorpusStore(url: url)
        try store.storeReading(CorpusFixtures.reading(["一", "二"]), job: "j", page: 1)
        let filler = fs.directory.appendingPathComponent("filler")
        try fs.fill(filler)
        let long = String(repeating: "満", count: 10_000)
        #expect { try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", long)], by: "a") } throws: { e in
            guard case CorpusError.full = e else { return false }
            print("CORPUS full file system: \(e)")
            return true
        }
        #expect(try store.page(job: "j", page: 1).currentText == ["一", "二"])
        try FileManager.default.removeItem(at: filler)
        #expect(try store.update(job: "j", page: 1, ifRevision: 1, edits: [.text(id: "l1", long)], by: "a").revision == 2)
        store.close()
        #expect(try CorpusStore(url: url).page(job: "j", page: 1).lines[0].text == long)
    }

    @Test("a backup taken while a writer edits is a consistent corpus that opens")
    func backupWhileWriting() throws {
        let url = try corpus(pages: 10)
        let store = try CorpusStore(url: url)
        let done = Counter()
        let writer = Thread {
            for n in 0..<150 {
                let page = 1 + n % 10
                do {
                    let p = try store.page(job: "j", page: page)
                    _ = try store.update(job: "j", page: page, ifRevision: p.revision,
                                         edits: [.text(id: "l\(1 + n % 5)", "訂\(n)"), .text(id: "l5", "後\(n)")], by: "w")
                } catch { Issue.record("writer: \(error)") }
            }
            done.add()
        }
        writer.start()
        var backups: [URL] = []
        while done.value == 0 || backups.count < 2 {
            let b = try CorpusFixtures.databaseURL("backup-\(backups.count)")
            try store.backup(to: b)
            backups.append(b)
        }
        let last = try CorpusFixtures.databaseURL("backup-last")
        try store.backup(to: last)
        backups.append(last)
        #expect(throws: CorpusError.self) { try store.backup(to: backups[0]) }
        for (i, b) in backups.enumerated() {
            let copy = try CorpusStore(url: b)
            for n in 1...10 {
                let page = try copy.page(job: "j", page: n)
                let history = try copy.history(job: "j", page: n)
                // Every revision of the copy has its history, and no history is past the copy's revision.
                #expect(Set(history.map(\.revision)).count == page.revision - 1)
                #expect(history.allSatisfy { $0.revision <= page.revision })
                for line in page.lines where line.corrected {
                    #expect(history.last { $0.line == line.id }?.after == line.text)
                }
            }
            if i == backups.count - 1 {
                for n in 1...10 { #expect(try copy.page(job: "j", page: n) == (try store.page(job: "j", page: n))) }
            }
            copy.close()
        }
        print("CORPUS backups while writing: \(backups.count)")
    }

    @Test("kill -9 between and during edits: every edit the store answered is there after reopening")
    func killedWriter() throws {
        let url = try corpus()
        var committed: [(tag: String, edit: Int, revision: Int)] = []
        for round in 0..<4 {
            let tag = "r\(round)"
            let child = Process()
            child.executableURL = CorpusFixtures.bench
            child.arguments = ["corpus-writer", url.path, "--job", "j", "--tag", tag]
            let out = Pipe()
            child.standardOutput = out
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Rounds 0 and 2 are killed just after an edit was answered, 1 and 3 just after one began.
            let target = 3 + round * 4, during = round % 2 == 1
            var buffer = Data(), done = false
            while !done {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...nl)
                    let words = line.split(separator: " ")
                    if words.first == "committed", words.count == 3, let e = Int(words[1]), let r = Int(words[2]) {
                        committed.append((tag, e, r))
                        if !during, e == target { kill(child.processIdentifier, SIGKILL); done = true; break }
                    }
                    if during, words.first == "begin", Int(words.last ?? "") == target + 1 {
                        kill(child.processIdentifier, SIGKILL); done = true; break
                    }
                }
            }
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal, "round \(round): the writer ended before it was killed")

            let store = try CorpusStore(url: url)
            let page = try store.page(job: "j", page: 1)
            let written = Set(try store.history(job: "j", page: 1).compactMap(\.after))
            for c in committed { #expect(written.contains("\(c.tag) e\(c.edit)"), "edit \(c.tag) e\(c.edit) lost") }
            #expect(page.revision >= (committed.last?.revision ?? 0))
            #expect(Set(try store.history(job: "j", page: 1).map(\.revision)).count == page.revision - 1)
            store.close()
        }
        print("CORPUS kill -9: \(committed.count) committed edits over 4 kills, all present")
    }

    @Test("10,000 edits in a row: the writer's resident memory stays flat, its write-ahead log small")
    func tenThousandEdits() throws {
        // On /dev/shm (tmpfs): memory does not depend on the disk, and the 10,000 commits need no disk flush.
        let dir = URL(fileURLWithPath: "/dev/shm").appendingPathComponent("koten-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        RemovedAtExit.shared.add(dir)
        let url = dir.appendingPathComponent("corpus.sqlite")
        let store = try CorpusStore(url: url)
        try store.storeReading(CorpusFixtures.reading((1...5).map { "行\($0)" }), job: "j", page: 1)
        store.close()
        let r = try runProcess(CorpusFixtures.bench, ["corpus-writer", url.path, "--job", "j", "--edits", "10000",
                                                      "--memory-every", "1000"])
        try #require(r.status == 0, "writer failed: \(r.stderr)")
        let reports = r.stdout.split(separator: "\n").filter { $0.hasPrefix("rss ") }.map { $0.split(separator: " ") }
        let rss = reports.compactMap { Int($0[2]) }, wal = reports.compactMap { $0.count > 3 ? Int($0[3]) : nil }
        try #require(rss.count == 10 && wal.count == 10)
        // The log is copied into the database as it passes 1,000 frames (the upkeep's checkpoint, which takes the write
        // lock past 2,000 when commits come too close together for a passive one to finish): it stays small.
        #expect(wal.allSatisfy { $0 < 16_000_000 }, "write-ahead log sizes \(wal)")
        let growth = rss[9] - rss[0]
        print("CORPUS 10,000 edits: VmRSS after 1,000 \(rss[0] / 1_000_000) MB, after 10,000 \(rss[9] / 1_000_000) MB; "
              + "largest log \((wal.max() ?? 0) / 1_000_000) MB")
        #expect(growth < 8_000_000, "resident memory grew \(growth) bytes from edit 1,000 to 10,000")
        let reopened = try CorpusStore(url: url)
        #expect(try reopened.page(job: "j", page: 1).revision == 10_001)
    }
}

/// A tmpfs of a few megabytes mounted for one test (root only), to fill.
struct SmallFileSystem {
    let directory: URL

    static let canMount: Bool = {
        guard getuid() == 0, let fs = try? SmallFileSystem(megabytes: 1) else { return false }
        fs.unmount()
        return true
    }()

    init(megabytes: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("koten-corpus-fs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let r = try runProcess(URL(fileURLWithPath: "/bin/mount"),
                               ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path])
        guard r.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw CorpusError.storage(reason: "mount: \(r.stderr)")
        }
    }

    /// Writes `file` until the file system says it is full.
    func fill(_ file: URL) throws {
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let block = Data(repeating: 0, count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
    }

    func unmount() {
        _ = try? runProcess(URL(fileURLWithPath: "/bin/umount"), [directory.path])
        try? FileManager.default.removeItem(at: directory)
    }
}
