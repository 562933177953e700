/// The stage a model serves; it decides the model's memory handling (`ArenaPolicy`).
package enum ModelStage: String, Sendable, Hashable, Codable {
    /// One page-sized run per page (DB, DEIM, RTMDet): activations dominate peak memory.
    case detection
    /// Many small runs per page (line orientation).
    case classification
    /// Many small runs per page (line text).
    case recognition
}
