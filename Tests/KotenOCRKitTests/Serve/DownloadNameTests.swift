import Foundation
import Testing
@testable import KotenOCRServer

/// The names a job's downloads are saved under (`DownloadName`, the result's `Content-Disposition`).
@Suite("serve: download names")
struct DownloadNameTests {
    @Test("a job is named after its first file, or its manifest's folder; odd characters become _")
    func stems() {
        #expect(DownloadName.stem(inputName: "scaned0.png", manifest: nil) == "scaned0")
        #expect(DownloadName.stem(inputName: "源氏物語 巻一.tif", manifest: nil) == "源氏物語_巻一")
        #expect(DownloadName.stem(inputName: "a \"b\"/c;d.pdf", manifest: nil) == "a_b_c_d")
        #expect(DownloadName.stem(inputName: "v1.2 draft.png", manifest: nil) == "v1_2_draft")
        #expect(DownloadName.stem(inputName: "..", manifest: nil) == "koten-ocr")
        #expect(DownloadName.stem(inputName: "x", manifest: "https://example.org/iiif/book1/manifest.json") == "book1")
        #expect(DownloadName.stem(inputName: nil, manifest: "https://example.org/iiif/My%20Book/manifest") == "My_Book")
        #expect(DownloadName.stem(inputName: nil, manifest: "https://example.org/iiif/manifest/b42.json") == "b42")   // as the CLI names the book
        #expect(DownloadName.stem(inputName: nil, manifest: "https://example.org/manifest.json") == "manifest")
        #expect(DownloadName.stem(inputName: String(repeating: "長", count: 300) + ".png", manifest: nil).count == 80)
        #expect(DownloadName.stem(inputName: "か\u{3099}.png", manifest: nil) == "が")   // NFD (macOS) names as NFC
    }

    @Test("Content-Disposition: the ASCII name as filename, every name as UTF-8 filename*, the fallback for a name that is not ASCII")
    func disposition() {
        #expect(DownloadName.contentDisposition("scaned0.pdf", fallback: "id.pdf")
                == "attachment; filename=\"scaned0.pdf\"; filename*=UTF-8''scaned0.pdf")
        #expect(DownloadName.contentDisposition("源氏-alto.zip", fallback: "id-alto.zip")
                == "attachment; filename=\"id-alto.zip\"; filename*=UTF-8''%E6%BA%90%E6%B0%8F-alto.zip")
        #expect(DownloadName.contentDisposition("a\"b.pdf", fallback: "id.pdf") == "attachment; filename=\"id.pdf\"; filename*=UTF-8''id.pdf")
    }
}
