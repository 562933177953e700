/// The engine's version, where the façade (`KotenOCR.version`) and the run diagnostics read it.
package enum EngineVersion {
    package static let current = "0.1.0"
}
