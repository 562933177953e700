import Foundation

/// The names a job's downloads are saved under (`Content-Disposition` of `GET /v1/jobs/{id}/result`): after what
/// the job read, as the web app names its links (docs/serve.md, "API"), so that a browser, which prefers the
/// server's name to the link's, and `curl -OJ` save `scaned0.pdf` and `scaned0-alto.zip`, not the job's id.
enum DownloadName {
    /// The stem: the first input's file name without its extension, or for a IIIF job the last folder of its
    /// manifest's URL (`…/book1/manifest.json`: `book1`; `iiif` when the manifest sits at the top); characters other
    /// than letters, digits, `.`, `_` and `-` become `_`; at most 100 characters; `koten-ocr` when nothing is left.
    static func stem(inputName: String?, manifest: String?) -> String {
        let raw: String
        if let manifest {
            let folders = (URL(string: manifest)?.path ?? "").split(separator: "/").map(String.init)
                .filter { !["manifest", "manifest.json"].contains($0.lowercased()) }
            raw = folders.last ?? "iiif"
        } else {
            let name = (inputName ?? "") as NSString
            raw = name.pathExtension.isEmpty ? name as String : name.deletingPathExtension
        }
        var out = ""
        var lastWasReplaced = false
        for character in raw {
            let kept = character.isLetter || character.isNumber || character == "." || character == "_" || character == "-"
            if kept { out.append(character) } else if !lastWasReplaced { out.append("_") }
            lastWasReplaced = !kept
        }
        let trimmed = String(out.drop { $0 == "." }.prefix(100))
        return trimmed.isEmpty ? "koten-ocr" : trimmed
    }

    /// `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266, RFC 8187): `fileName` percent-encoded as UTF-8,
    /// and as the plain `filename` when it is ASCII, else `fallback` (for clients that read only that).
    static func contentDisposition(_ fileName: String, fallback: String) -> String {
        let plain = fileName.unicodeScalars.allSatisfy { $0.isASCII } ? fileName : fallback
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "!#$&+-.^_`|~")
        let encoded = fileName.addingPercentEncoding(withAllowedCharacters: allowed) ?? fallback
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }
}
