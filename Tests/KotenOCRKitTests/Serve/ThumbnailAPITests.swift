import Foundation
import Testing
@testable import KotenOCRKit
@testable import KotenOCRServer
import KotenOCRTestSupport

/// `GET /v1/jobs/{id}/pages/{n}/thumbnail` in-process (docs/serve.md, "API"): the page list's thumbnails, made
/// with libvips' thumbnail operation, kept in the job's folder, answered with validators like the page image.
@Suite("serve: page thumbnails in-process")
struct ThumbnailAPITests {
    @Test("a multi-page TIFF's pages and a JPEG tagged EXIF 6: each thumbnail a JPEG of the upright page, its longer side 200 pixels at most, kept in thumbs/; ETag and 304; 404 past the pages, for a removed job; in the route table")
    func thumbnails() async throws {
        let api = try await sharedAPI()
        let engine = try await APIEngine.shared.get()
        let dir = try TestPaths.temporaryDirectory("api-thumbnail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tiff = try ServeFixtures.lines(2, in: dir)                         // 240×56 pages
        let turned = dir.appendingPathComponent("turned.jpg")               // shown 480×112, its pixels stored turned (112×480)
        let scan = try BatchFixtures.line(3)                                // 240×56
        var page = try #require(RGBImage(width: 480, height: 112, pixels: [UInt8](repeating: 255, count: 480 * 112 * 3)))
        page.paste(scan, x: 0, y: 0)
        page.paste(scan, x: 240, y: 56)
        try ImageWriter.saveOriented(page, to: turned, orientation: 6)
        let posted = try await api.call("POST", "/v1/jobs", body: .multipart(fields: [:], files: [(tiff, nil, "image/tiff"), (turned, nil, "image/jpeg")]))
        #expect(posted.status == 202, "\(posted.text)")
        let id = try #require(posted.json["id"] as? String)
        _ = try await api.finished(id)

        for n in 1...3 {
            let image = try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)/image")
            let thumb = try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)/thumbnail")
            #expect(thumb.status == 200 && thumb.header("Content-Type") == "image/jpeg", "page \(n): \(thumb.status) \(thumb.text.prefix(200))")
            #expect(thumb.body.starts(with: [0xFF, 0xD8, 0xFF]))
            let big = try engine.open(image.body), small = try engine.open(thumb.body)
            // The upright page, scaled to a longer side of 200 pixels (its shape kept).
            #expect(max(small.width, small.height) == JobFiles.thumbnailSide, "page \(n): \(small.width)×\(small.height)")
            #expect((big.width > big.height) == (small.width > small.height), "page \(n): page \(big.width)×\(big.height), thumbnail \(small.width)×\(small.height)")
            let ratio = Double(big.width) / Double(big.height), shown = Double(small.width) / Double(small.height)
            #expect(abs(ratio - shown) / ratio < 0.1, "page \(n): \(ratio) / \(shown)")
            #expect(thumb.body.count < image.body.count)
            // Kept: the file in the job's folder, and a second request answers its bytes again with the same validator.
            let kept = api.work.appendingPathComponent("jobs/\(id)/thumbs/\(String(format: "%04d", n)).jpg")
            #expect(FileManager.default.fileExists(atPath: kept.path))
            let again = try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)/thumbnail")
            let etag = try #require(thumb.header("ETag"))
            #expect(again.body == thumb.body && again.header("ETag") == etag)
            let conditional = try await api.call("GET", "/v1/jobs/\(id)/pages/\(n)/thumbnail", headers: ["If-None-Match": etag])
            #expect(conditional.status == 304 && conditional.body.isEmpty)
        }
        // Page 3 is the JPEG tagged EXIF 6: shown upright, wider than tall (its stored pixels are taller than wide).
        let third = try engine.open(try await api.call("GET", "/v1/jobs/\(id)/pages/3/thumbnail").body)
        #expect(third.width == 200 && third.height == 47, "\(third.width)×\(third.height)")
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/4/thumbnail").status == 404)
        #expect(try await api.call("HEAD", "/v1/jobs/\(id)/pages/1/thumbnail").status == 200)
        // In the route table, so in the OpenAPI document.
        let paths = (try await api.call("GET", "/openapi.json").json["paths"] as? [String: Any]) ?? [:]
        #expect(paths["/v1/jobs/{id}/pages/{n}/thumbnail"] != nil)
        #expect(try await api.call("DELETE", "/v1/jobs/\(id)").status == 204)
        #expect(try await api.call("GET", "/v1/jobs/\(id)/pages/1/thumbnail").status == 404)
    }
}
