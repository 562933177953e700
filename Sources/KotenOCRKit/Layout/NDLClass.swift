/// The 17 NDLOCR-Lite layout classes (`config/ndl.yaml`) with the Japanese TYPE written to XML.
///
/// reference: docs/reference-pipelines.md §1.2 "Classes"; NDL `src/ndl_parser.py` categories.
package struct NDLClass: Sendable, Hashable {
    /// The English class name (`line_main`, `block_fig`, ...).
    public let name: String
    /// The TYPE written in the XML (`本文`, `図版`, ...).
    public let type: String

    /// All classes; the array index is the class index (label − 1).
    public static let all: [NDLClass] = [
        ("text_block", "本文ブロック"), ("line_main", "本文"), ("line_caption", "キャプション"),
        ("line_ad", "広告文字"), ("line_note", "割注"), ("line_note_tochu", "頭注"),
        ("block_fig", "図版"), ("block_ad", "広告"), ("block_pillar", "柱"), ("block_folio", "ノンブル"),
        ("block_rubi", "ルビ"), ("block_chart", "組織図"), ("block_eqn", "数式"), ("block_cfm", "化学式"),
        ("block_eng", "欧文"), ("block_table", "表組"), ("line_title", "タイトル本文"),
    ].map { NDLClass(name: $0.0, type: $0.1) }

    static let textBlock = 0
    static let lineMain = 1
    static let blockAd = 7
    static let blockTable = 15

    var isLine: Bool { name.hasPrefix("line_") }
    var isBlock: Bool { name.hasPrefix("block_") }
}
