import Foundation
import KotenOCRKit

/// The NDL modes' stand-in models (`make standins`: random weights, real signatures and file sizes),
/// loaded straight through the model store for memory measurements.
struct StandInSet {
    let root: URL

    /// Every .onnx under `root/ndl` and `root/koten`, as descriptors of those modes.
    func descriptors() throws -> [ModelDescriptor] {
        var list: [ModelDescriptor] = []
        for mode in [OCRMode.ndl, .koten] {
            let dir = root.appendingPathComponent(mode.rawValue)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".onnx") }.sorted()
            guard !files.isEmpty else { throw BenchError.usage("no stand-in models in \(dir.path): run `make standins`") }
            for file in files {
                let detector = file.hasPrefix("deim") || file.hasPrefix("rtmdet")
                list.append(ModelDescriptor(mode: mode, role: (file as NSString).deletingPathExtension,
                                            stage: detector ? .detection : .recognition, url: dir.appendingPathComponent(file)))
            }
        }
        return list
    }

    /// Loads every stand-in into `store` (they stay resident, idle). Returns the sum of their measured resident bytes.
    func loadAll(into store: ModelStore) async throws -> Int {
        let list = try descriptors()
        for d in list { try await store.withModel(d) { _ in } }
        let loaded = await store.loadedModels()
        return list.reduce(0) { $0 + (loaded[$1.id] ?? 0) }
    }
}
