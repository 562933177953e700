import Foundation
@testable import KotenOCRKit

/// A detector without a model: the same regions on every page, counting its calls.
final class FixedDetector<Region: Sendable>: PageDetector, @unchecked Sendable {
    let regions: [Region]
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }

    init(_ regions: [Region]) { self.regions = regions }

    func detect(_ page: ImageSource, store: ModelStore) async throws -> DetectedPage<Region> {
        lock.withLock { count += 1 }
        return DetectedPage(detections: regions)
    }
}
