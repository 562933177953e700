import Foundation
import Testing
@testable import KotenOCRCorpus

/// The upkeep kept out of an edit's commit (`CorpusMaintenance`, docs/corpus.md "Upkeep outside the edits"), and
/// the short-query index's tokens made by scalars.
@Suite("Corpus: upkeep outside the edits")
struct CorpusUpkeepTests {
    @Test("FTS5 merges nothing inside a commit; after 400 edits the upkeep has merged the segments, the index intact")
    func mergesAfterCommits() throws {
        let url = try CorpusFixtures.databaseURL()
        let store = try CorpusStore(url: url)
        let texts = (1...20).map { "第\($0)行の本文をここに書く" }
        try store.storeReading(CorpusFixtures.reading(texts), job: "j", page: 1)
        var revision = try store.page(job: "j", page: 1).revision
        for i in 1...400 {
            revision = try store.update(job: "j", page: 1, ifRevision: revision,
                                        edits: [.text(id: "l\(i % 20 + 1)", "改\(i)の行")], by: "t").revision
        }
        store.waitForUpkeep()

        let db = try SQLiteConnection(path: url.path, create: false)
        defer { db.close() }
        for table in ["search_trigram", "search_grams"] {
            // Off in the table's own settings: no commit merges (`crisismerge`, 16 segments a level, aside).
            #expect(try db.scalarInt("SELECT v FROM \(table)_config WHERE k = 'automerge'") == 0, "\(table)")
            try db.execute("INSERT INTO \(table)(\(table)) VALUES ('integrity-check')")
            // Each edit wrote a segment a table. FTS5's rowids of segment pages carry the segment's id from bit 37
            // (rowids 1 and 10 are its averages and structure records).
            let segments = try db.scalarInt("SELECT count(DISTINCT id >> 37) FROM \(table)_data WHERE id > 10")
            #expect(segments <= 4, "\(table): \(segments) segments after 400 edits")
        }
        let hits = try store.search(SearchQuery(text: "改400の行", limit: 5)).hits
        #expect(hits.map(\.line) == ["l1"])
        #expect(try store.search(SearchQuery(text: "改380の行", limit: 5)).hits.isEmpty)  // l1 again at 400
        store.close()
    }

    @Test("the short-query tokens by scalars are those by strings on Japanese text; other text takes the strings' way")
    func gramTokensByScalars() {
        var rng = SplitMix64(seed: 36)
        let alphabet = Array("あいうえおかがきぎくっゃゅょアイウエオガギャュョーヴ々〆国學体字行本文、。「」（）・…abcxyz0129\u{E000}𠀋𡈽")
            .flatMap { $0.unicodeScalars }
        for _ in 0..<300 {
            // As `gramTokens` takes folded text: what the index's tokenizer drops stands as U+E000.
            let t = (0..<Int(rng.next() % 60)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
                .map { SearchFolding.isTokenCharacter($0) ? $0 : "\u{E000}" }
            #expect(t.allSatisfy(SearchFolding.composesWithNothing))
            #expect(SearchFolding.distinctGrams(scalarKeyed: t) == SearchFolding.distinctGrams(stringKeyed: t))
        }
        // A pair that composes (Hangul jamo, a combining voiced mark) or a scalar NFKC changes: the strings' way.
        for s: Unicode.Scalar in ["\u{1100}", "\u{1161}", "\u{3099}", "\u{0301}", "\u{FF76}", "A", "\u{F91D}", "\u{09BE}"] {
            #expect(!SearchFolding.composesWithNothing(s), "U+\(String(s.value, radix: 16))")
        }
        #expect(SearchFolding.gramTokens("か\u{3099}か".unicodeScalars) == SearchFolding.distinctGrams(stringKeyed: Array("か\u{3099}か".unicodeScalars)))
    }
}
