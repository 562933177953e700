import Foundation
import Testing
@testable import KotenOCRKit
import KotenOCRTestSupport

/// A cluster when one machine is not enough: N processes with `--shard K/N` over the same inputs read every
/// page exactly once, and together write exactly what one process writes.
@Suite("Batch shards: a partition of the pages", .serialized)
struct BatchShardTests {
    @Test("four shards run in parallel into one folder cover a 40-page corpus exactly once, byte for byte")
    func fourShards() throws {
        let corpus = try TestPaths.temporaryDirectory("batch-shard-corpus")
        _ = try BatchFixtures.writePages(0..<40, to: corpus, lines: true, name: { "c\($0 + 1).png" })
        let single = try TestPaths.temporaryDirectory("batch-shard-single")
        let one = try runCLI(try BatchFixtures.cliArguments(["--output", single.path, corpus.path]))
        try #require(one.status == 0, "\(one.stderr)")
        let reference = try BatchFixtures.snapshot(single)
        #expect(reference.count == 80)

        let shared = try TestPaths.temporaryDirectory("batch-shard-shared")
        let processes = try (1...4).map { k in
            try BatchFixtures.startCLI(try BatchFixtures.cliArguments(["--output", shared.path, "--shard", "\(k)/4", corpus.path]))
        }
        for p in processes { p.waitUntilExit(); #expect(p.terminationStatus == 0) }
        #expect(try BatchFixtures.snapshot(shared) == reference)

        // Each shard recorded its own pages in its own manifest: disjoint, none empty, together all 40, each read once.
        var owner: [String: Int] = [:]
        for k in 1...4 {
            let url = shared.appendingPathComponent(BatchManifest.fileName(shard: try Shard(index: k, count: 4)))
            let records = try Data(contentsOf: url).split(separator: 0x0A)
                .map { try JSONDecoder().decode(BatchManifest.Record.self, from: Data($0)) }
            let started = records.filter { $0.state == .started }.map(\.key)
            #expect(!started.isEmpty && Set(started).count == started.count)
            for key in started {
                #expect(owner[key] == nil, "\(key) read by shards \(owner[key] ?? 0) and \(k)")
                owner[key] = k
                #expect(Shard.owner(of: key, count: 4) == k)
            }
        }
        #expect(Set(owner.keys) == Set((1...40).map { "c\($0).png#1" }))
    }

    @Test("the partition hashes each page's own key: SHA-256 of relativePath#page, first 64 bits mod N")
    func partitionIsByKey() throws {
        // Values from Python's hashlib: int(sha256(key).hexdigest()[:16], 16) % N + 1.
        #expect(Shard.owner(of: "c1.png#1", count: 4) == 1)
        #expect(Shard.owner(of: "vol1/0001.jpg#1", count: 4) == 3)
        #expect(Shard.owner(of: "book.pdf#3", count: 1000) == 305)
        #expect(Shard.owner(of: "vol1/0001.jpg#1", count: 1000) == 415)
    }

    @Test("planning: shards are disjoint and complete, and adding inputs moves no other page")
    func planningIsStable() throws {
        let corpus = try TestPaths.temporaryDirectory("batch-shard-plan")
        let small = RGBImage(width: 8, height: 8)
        for i in 1...30 { try ImageWriter.save(small, to: corpus.appendingPathComponent("s\(i).png")) }
        try ImageWriter.saveMultiPageTIFF([small, small, small], to: corpus.appendingPathComponent("book.tif"))
        func keys(_ shard: Shard?) throws -> [String] {
            try BatchPlan.prepare([corpus.path], options: { var o = BatchOptions(formats: [.txt]); o.shard = shard; return o }()).tasks.map(\.key)
        }
        let all = try keys(nil)
        #expect(all.count == 33)
        let before = try (1...3).map { try keys(Shard(index: $0, count: 3)) }
        #expect(before.flatMap { $0 }.sorted() == all.sorted())
        #expect(Set(before[0]).isDisjoint(with: before[1]) && Set(before[1]).isDisjoint(with: before[2])
                && Set(before[0]).isDisjoint(with: before[2]))
        for i in 31...45 { try ImageWriter.save(small, to: corpus.appendingPathComponent("s\(i).png")) }
        let after = try (1...3).map { try Set(keys(Shard(index: $0, count: 3))) }
        for k in 0..<3 { #expect(Set(before[k]).isSubset(of: after[k])) }
    }
}
