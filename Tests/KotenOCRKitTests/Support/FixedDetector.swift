import Foundation
@testable import KotenOCRKit

/// A detector without a model: the same regions on every page, counting its calls and keeping the size of each
/// page it was given.
final class FixedDetector<Region: Sendable>: PageDetector, @unchecked Sendable {
    let regions: [Region]
    private let lock = NSLock()
    private var sizes: [(width: Int, height: Int)] = []
    var calls: Int { lock.withLock { sizes.count } }
    var pageSizes: [(width: Int, height: Int)] { lock.withLock { sizes } }

    init(_ regions: [Region]) { self.regions = regions }

    func detect(_ page: ImageSource, store: ModelStore) async throws -> DetectedPage<Region> {
        lock.withLock { sizes.append((page.width, page.height)) }
        return DetectedPage(detections: regions)
    }
}
