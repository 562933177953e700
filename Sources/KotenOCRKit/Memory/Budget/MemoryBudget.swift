import Foundation

/// The default memory budget, and sizes parsed from command lines.
public enum MemoryBudget {
    /// The cgroup's memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`) if one is set, else the
    /// machine's physical memory.
    public static func automatic() -> Int {
        let physical = ProcessMemory.physicalBytes
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0, value < physical {
                return value
            }
        }
        return physical
    }

    /// Whether `explicitBudget` (bytes; nil: none was set) is a tight one: set, and below the machine's memory.
    /// Under a tight budget every run that has ONNX Runtime's arena hands it back when it ends (`MemoryTightness`).
    public static func isTight(explicit explicitBudget: Int?) -> Bool {
        explicitBudget.map { $0 < ProcessMemory.physicalBytes } ?? false
    }

    /// Parses a size as a person types it: "200MB", "1.5GB", "512MiB", "300000000" (bytes). Decimal units
    /// (kB, MB, GB) are powers of 1000, binary ones (KiB, MiB, GiB) powers of 1024. Returns nil for anything else
    /// or ≤ 0. Used by the command lines (`koten-ocr --memory-budget`, `koten-ocr-bench --budget`); the engine
    /// itself takes bytes (`OCRConfiguration.memoryBudgetBytes`).
    public static func parse(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("kB", 1e3), ("KB", 1e3),
                                         ("MB", 1e6), ("GB", 1e9), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("B", 1)]
        for (suffix, factor) in units where t.hasSuffix(suffix) {
            guard let v = Double(t.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), v > 0 else { return nil }
            return Int(v * factor)
        }
        guard let v = Int(t), v > 0 else { return nil }
        return v
    }
}
