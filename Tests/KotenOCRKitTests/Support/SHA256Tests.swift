import Foundation
import Testing
@testable import KotenOCRKit

@Suite("SHA-256 (GLib)")
struct SHA256Tests {
    @Test("known digests (FIPS 180-2 examples)")
    func knownVectors() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("streaming in pieces and hashing a file in small chunks equal the one-shot digest")
    func streamingAndFile() throws {
        let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
        let oneShot = SHA256.hex(bytes)
        let hash = SHA256()
        var i = 0
        while i < bytes.count { let j = min(bytes.count, i + 4099); hash.update(Array(bytes[i..<j])); i = j }
        #expect(hash.finalize() == oneShot)
        #expect(hash.finalize() == oneShot)
        let url = try TestPaths.temporaryDirectory().appendingPathComponent("blob.bin")
        try Data(bytes).write(to: url)
        #expect(try SHA256.hex(fileAt: url, chunkSize: 777) == oneShot)
        #expect(try SHA256.hex(fileAt: url) == oneShot)
    }

    @Test("a missing file is an error")
    func missingFile() {
        #expect(throws: (any Error).self) { try SHA256.hex(fileAt: URL(fileURLWithPath: "/nonexistent/model.onnx")) }
    }
}
