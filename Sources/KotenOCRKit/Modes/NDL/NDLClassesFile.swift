import Foundation

extension NDLClass {
    /// Checks NDLOCR-Lite's `config/ndl.yaml` (`names: {0: text_block, …, 16: line_title}`) against the
    /// 17 classes the layout logic is written for (`NDLClass.all`, in the same order: DEIM's label − 1
    /// indexes them). Throws `ModelError.invalidFile` naming the file and the first difference.
    /// Reference: docs/reference-pipelines.md §1.2 "Classes".
    public static func validateClassesFile(_ url: URL) throws {
        let values = try NDLConfigFile.read(url)
        let names = values.filter { $0.key.hasPrefix("names.") }
        guard names.count == all.count else {
            throw ModelError.invalidFile(path: url.path, reason: "\(names.count) classes under names, NDLOCR-Lite's layout has \(all.count)")
        }
        for (i, c) in all.enumerated() {
            guard let name = names["names.\(i)"] else {
                throw ModelError.invalidFile(path: url.path, reason: "no class \(i) under names")
            }
            guard name == c.name else {
                throw ModelError.invalidFile(path: url.path, reason: "class \(i) is '\(name)', NDLOCR-Lite's is '\(c.name)'")
            }
        }
    }
}
