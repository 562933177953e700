import Foundation

/// A mode's files found in a model folder, every group satisfied (`ModelDirectory.files(for:)`): what a
/// wing's `…ModelFiles` is built from, so the files are looked up and checked once.
package struct ModeFiles: Sendable {
    public let mode: OCRMode
    /// The mode's folder (`ModelDirectory.directory(for:)`).
    public let directory: URL
    /// The file found for each group, by the group's first name.
    let found: [String: URL]

    /// The file found for the group whose first name is `name` (whichever of its names is present).
    public func url(_ name: String) -> URL {
        found[name] ?? directory.appendingPathComponent(name)
    }
}
