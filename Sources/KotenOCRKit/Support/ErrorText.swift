import Foundation

/// One readable line for any error: our own errors' descriptions; for Foundation's file errors, the system's
/// reason (e.g. "no space left on device", "permission denied") instead of an `Error Domain=…` dump.
package enum ErrorText {
    public static func line(_ error: Error) -> String {
        let text: String
        if let e = error as? CocoaError {
            text = cocoaReason(e)
        } else if let e = error as? POSIXError {
            text = String(cString: strerror(e.code.rawValue))
        } else {
            text = String(describing: error)  // our errors are CustomStringConvertible
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func cocoaReason(_ error: CocoaError) -> String {
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        switch error.code {
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or directory"
        case .fileWriteFileExists: return "a file is in the way"
        default:
            if let text = error.userInfo[NSLocalizedDescriptionKey] as? String { return text }
            return "file operation failed (code \(error.code.rawValue))"
        }
    }
}
