import Foundation
import Testing
@testable import KotenOCRCorpus

@Suite("Corpus: search")
struct CorpusSearchTests {
    private func hits(_ store: CorpusStore, _ text: String, job: String? = nil, limit: Int = 100) throws -> [SearchHit] {
        try store.search(SearchQuery(text: text, job: job, limit: limit)).hits
    }

    @Test("one and two characters find every occurrence, in order, and not across punctuation")
    func shortQueries() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["月日は百代の過客にして", "行かふ年も又旅人也", "月月に月見る月は"]),
                               job: "奥の細道", page: 1)
        try store.storeReading(CorpusFixtures.reading(["源氏物語", "源、氏の君", "光る源氏"]), job: "源氏", page: 1)
        try store.storeReading(CorpusFixtures.reading(["いづれの御時にか"]), job: "源氏", page: 2)

        let moon = try hits(store, "月")
        #expect(moon.count == 5)
        #expect(moon.map(\.line) == ["l1", "l3", "l3", "l3", "l3"])
        #expect(moon.allSatisfy { String(Array($0.snippet)[$0.highlight]) == "月" })
        #expect(moon.map(\.highlight.lowerBound) == [0, 20, 20, 20, 20])
        let genji = try hits(store, "源氏")
        #expect(genji.map(\.line) == ["l1", "l3"])
        #expect(genji.allSatisfy { $0.job == "源氏" && $0.page == 1 && $0.source == .current })
        #expect(genji[1].text == "光る源氏" && genji[1].box == CorpusBox(x: 780, y: 100, width: 40, height: 1000))
        #expect(try hits(store, "御").map(\.page) == [2])
        #expect(try hits(store, "月", job: "源氏").isEmpty)
        #expect(try hits(store, "無").isEmpty)
        #expect(throws: CorpusError.emptyQuery) { try store.search(SearchQuery(text: "  ")) }
    }

    @Test("a word broken across two lines is found, with both lines and their boxes")
    func acrossLines() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["むかし男ありけり。その男、みやこの物", "語を聞きて"]), job: "伊勢", page: 3)
        for q in ["物語", "物語を聞"] {
            let h = try hits(store, q)
            #expect(h.count == 1, "\(q)")
            #expect(h.first?.lines == ["l1", "l2"])
            #expect(h.first?.box == CorpusBox(x: 840, y: 100, width: 100, height: 1000))
            let snippet = try #require(h.first?.snippet), range = try #require(h.first?.highlight)
            #expect(String(Array(snippet)[range]) == q)
        }
    }

    @Test("query and text are NFKC-normalised: half-width kana, full-width Latin, compatibility ideographs")
    func nfkc() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        try store.storeReading(CorpusFixtures.reading(["ガッコウでＡＢＣを学ぶ", "明治㍻", "神社"]), job: "j", page: 1)
        #expect(try hits(store, "ｶﾞｯｺｳ").map(\.line) == ["l1"])
        #expect(try hits(store, "abc").map(\.line) == ["l1"])
        #expect(try hits(store, "ＡＢＣを").first?.snippet == "ガッコウでＡＢＣを学ぶ明治㍻神社")
        #expect(try hits(store, "平成").map(\.line) == ["l2"])
        #expect(try hits(store, "\u{FA19}社").map(\.line) == ["l3"])
        // The original characters are kept: the hit's highlight covers ㍻, one character for two folded.
        let h = try #require(try hits(store, "治平成").first)
        #expect(String(Array(h.snippet)[h.highlight]) == "治㍻")
    }

    @Test("旧字体 and 新字体 find each other through the Jōyō table, and only with it")
    func variants() throws {
        let url = try CorpusFixtures.databaseURL()
        let texts = ["國學院の會議", "圖書館の廣間", "国学の会", "図と広"]
        var store = try CorpusStore(url: url)
        try store.storeReading(CorpusFixtures.reading(texts), job: "j", page: 1)
        #expect(try hits(store, "国").map(\.line) == ["l3"])
        store.close()
        // Opened with the table, the index is folded again.
        store = try CorpusStore(url: url, variants: try CorpusFixtures.variants())
        for (new, old) in [("国", "國"), ("学", "學"), ("会", "會"), ("図", "圖"), ("広", "廣")] {
            #expect(try hits(store, new).count == 2, "\(new)")
            #expect(try hits(store, old).count == 2, "\(old)")
        }
        #expect(try hits(store, "国学").map(\.line) == ["l1", "l3"])
        #expect(try hits(store, "図書館の広").map(\.line) == ["l2"])
        let h = try #require(try hits(store, "国学").first)
        #expect(String(Array(h.snippet)[h.highlight]) == "國學")
        #expect(try CorpusFixtures.variants().count > 290)
    }

    @Test("the index follows corrections, removals and re-reads, and survives a restart")
    func follows() throws {
        let url = try CorpusFixtures.databaseURL()
        var store = try CorpusStore(url: url)
        try store.storeReading(CorpusFixtures.reading(["氨送子の管", "円商形"]), job: "a", page: 1)
        try store.storeReading(CorpusFixtures.reading(["円商形の箱"]), job: "b", page: 1)
        _ = try store.update(job: "a", page: 1, ifRevision: 1, edits: [.text(id: "l1", "気送子の管"), .deleted(id: "l2", true)],
                             by: "x")
        #expect(try hits(store, "気送子").map(\.source) == [.current])
        // The engine's reading is still found, as the model text, where the current text does not have the query.
        let model = try hits(store, "氨送")
        #expect(model.map(\.source) == [.model] && model.first?.text == "氨送子の管")
        #expect(try hits(store, "円商").map { "\($0.job) \($0.source)" } == ["a model", "b current"])
        #expect(try hits(store, "の管").map(\.source) == [.current])
        // A correction undone: the model hit goes (it is the current text again).
        _ = try store.update(job: "a", page: 1, ifRevision: 2, edits: [.text(id: "l1", "氨送子の管")], by: "x")
        #expect(try hits(store, "氨送").map(\.source) == [.current])
        #expect(try hits(store, "気送子").isEmpty)
        // A re-read: its text is found, the correction's too.
        try store.storeReading(CorpusFixtures.reading(["気送子の管", "円筒形"]), job: "a", page: 1)
        #expect(try hits(store, "円筒形").map(\.source) == [.model])  // l2 is still marked as not text
        #expect(try hits(store, "気送子").count == 1)
        store.close()
        store = try CorpusStore(url: url)
        #expect(try hits(store, "気送子").count == 1)
        #expect(try store.removeJob("a"))
        #expect(try hits(store, "気送子").isEmpty)
        #expect(try hits(store, "円商").map(\.job) == ["b"])
        #expect(try store.removePage(job: "b", page: 1))
        #expect(try hits(store, "円").isEmpty)
        #expect(try store.jobs() == ["b"] && store.pageNumbers(job: "b").isEmpty)
    }

    @Test("limit and offset page through the hits in order: jobs as stored, pages, lines")
    func paging() throws {
        let store = try CorpusStore(url: try CorpusFixtures.databaseURL())
        for job in ["二", "一"] {
            for page in [3, 1, 2] { try store.storeReading(CorpusFixtures.reading(["花と花", "花"]), job: job, page: page) }
        }
        let all = try hits(store, "花")
        #expect(all.count == 18)
        #expect(all.map { "\($0.job)\($0.page)\($0.line)" }.prefix(4) == ["二1l1", "二1l1", "二1l2", "二2l1"])
        var paged: [SearchHit] = []
        var offset = 0
        while true {
            let r = try store.search(SearchQuery(text: "花", limit: 4, offset: offset))
            paged += r.hits
            offset += 4
            if !r.hasMore { break }
        }
        #expect(paged == all)
        #expect(try store.search(SearchQuery(text: "花", limit: 18)).hasMore == false)
        #expect(try store.search(SearchQuery(text: "花", limit: 17)).hasMore == true)
    }
}
