import CAllocator
import Testing

/// The detector's tensor allocator (C `koten_tensor_cache`, `DetectorBuffers`): freed blocks are kept for later
/// tensors, but never so many that the blocks handed out and kept together pass the most the requests needed at once
/// (issue 34: the kept blocks had taken the 12 MP photo's peak 13–15 MB past 0145ba9's in ndl and koten).
@Suite("Tensor cache")
struct TensorCacheTests {
    @Test("a freed block is served again, and what is kept never takes live + kept past the requests' high-water mark")
    func keptWithinHighWaterMark() throws {
        let cache = try #require(koten_tensor_cache_create(nil, 64 << 20))
        defer { koten_tensor_cache_destroy(cache) }
        let mib = 1 << 20
        func counts() -> (live: Int, kept: Int, high: Int) {
            var live = 0, kept = 0, high = 0
            koten_tensor_cache_counts(cache, &live, &kept, &high)
            return (live, kept, high)
        }
        func withinHigh() -> Bool { let c = counts(); return c.live + c.kept <= c.high }
        koten_tensor_cache_set_limit(cache, 0)  // a run begins: the high-water mark counts from here
        koten_tensor_cache_set_limit(cache, 64 << 20)
        let a = try #require(koten_tensor_cache_alloc(cache, 4 * mib))
        let b = try #require(koten_tensor_cache_alloc(cache, 4 * mib))
        koten_tensor_cache_free(cache, a)
        #expect(counts().kept > 4 * mib && withinHigh())  // a kept: live + kept is what both needed
        // An 8 MiB tensor fits no kept block: it is mapped, and the 4 MiB block goes back rather than sit beside it.
        let c = try #require(koten_tensor_cache_alloc(cache, 8 * mib))
        #expect(counts().kept == 0 && withinHigh())
        koten_tensor_cache_free(cache, b)
        koten_tensor_cache_free(cache, c)
        #expect(counts().live == 0 && counts().kept > 12 * mib && withinHigh())
        var maps: UInt64 = 0, reuses: UInt64 = 0
        koten_tensor_cache_stats(cache, &maps, &reuses)
        let d = try #require(koten_tensor_cache_alloc(cache, 8 * mib))  // served from c's pages
        var reusesAfter: UInt64 = 0
        koten_tensor_cache_stats(cache, &maps, &reusesAfter)
        #expect(reusesAfter == reuses + 1 && withinHigh())
        // A smaller tensor that no kept block fits within a quarter: mapped, and kept blocks make room for it.
        let e = try #require(koten_tensor_cache_alloc(cache, 2 * mib))
        #expect(withinHigh())
        koten_tensor_cache_free(cache, d)
        koten_tensor_cache_free(cache, e)
        #expect(withinHigh())
        koten_tensor_cache_set_limit(cache, 0)  // the run ends: everything kept goes back
        #expect(counts().kept == 0 && counts().live == 0)
    }
}
