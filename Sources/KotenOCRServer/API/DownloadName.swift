import Foundation
import KotenOCRIIIF

/// The names a job's downloads are saved under (`Content-Disposition` of `GET /v1/jobs/{id}/result`): after what
/// the job read, as the web app names its links (docs/serve.md, "API"), so that a browser, which prefers the
/// server's name to the link's, and `curl -OJ` save `scaned0.pdf` and `scaned0-alto.zip`, not the job's id.
enum DownloadName {
    /// The stem: the first input's file name without its extension, or for a IIIF job the folder the command line
    /// writes the book into (`IIIFBook.folderName`: `…/book1/manifest.json` → `book1`, `…/manifest/b42.json` →
    /// `b42`); made safe as the command line makes names (`IIIFNames.safe`: letters, digits and marks kept, `-`
    /// and `_`, every other run one `_`, at most 80 characters, NFC); `koten-ocr` when nothing is left.
    static func stem(inputName: String?, manifest: String?) -> String {
        let raw: String
        if let manifest {
            raw = IIIFBook.folderName(of: manifest)
        } else {
            let name = (inputName ?? "") as NSString
            raw = name.pathExtension.isEmpty ? name as String : name.deletingPathExtension
        }
        let safe = IIIFNames.safe(raw.precomposedStringWithCanonicalMapping, limit: 80)
        return safe.isEmpty ? "koten-ocr" : safe
    }

    /// `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266, RFC 8187): `fileName` percent-encoded as UTF-8,
    /// and as the plain `filename` when it is ASCII, else `fallback` (for clients that read only that).
    /// A name with a quote, a backslash or a control character, or longer than 200 UTF-8 bytes, is given as `fallback`
    /// alone (the callers' names have none of these: `stem` and job ids).
    static func contentDisposition(_ fileName: String, fallback: String) -> String {
        let unsafe: (Unicode.Scalar) -> Bool = { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
        let name = fileName.unicodeScalars.contains(where: unsafe) || fileName.utf8.count > 200 ? fallback : fileName
        let plain = name.unicodeScalars.allSatisfy { $0.isASCII } ? name : fallback
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "!#$&+-.^_`|~")
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? fallback
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }
}
