/// Problems with a mode's model files.
public enum ModelError: Error, Equatable, CustomStringConvertible {
    case missingFiles(mode: OCRMode, directory: String, files: [String])
    case modeUnavailable(mode: OCRMode)
    case invalidFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .missingFiles(let mode, let dir, let files):
            return "\(dir): mode \(mode) needs \(files.joined(separator: ", ")) (not found)"
        case .modeUnavailable(let mode): return "mode \(mode) is not available in this build"
        case .invalidFile(let path, let reason): return "\(path): \(reason)"
        }
    }
}
