extension ImageSource {
    /// The layout of one pixel of 8-bit pixels an app holds in memory (`ImageSource(pixels:width:height:bytesPerRow:format:)`).
    public enum PixelFormat: Sendable, Equatable, CaseIterable {
        /// One byte: grey.
        case grey8
        /// Three bytes: red, green, blue.
        case rgb8
        /// Four bytes: red, green, blue, alpha (not premultiplied; alpha is handled as in an RGBA PNG).
        case rgba8
        /// Four bytes: blue, green, red, alpha (Apple's and Android's usual camera and bitmap layout).
        case bgra8

        /// Bytes per pixel.
        public var bytesPerPixel: Int {
            switch self {
            case .grey8: return 1
            case .rgb8: return 3
            case .rgba8, .bgra8: return 4
            }
        }
    }
}

/// Bytes copied into memory this process owns, at a fixed address for their whole life (libvips reads them
/// lazily while an image opened from them is decoded). Immutable once made.
final class PinnedBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let count: Int

    /// A copy of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        count = bytes.count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 16)
        if let source = bytes.baseAddress, count > 0 { base.copyMemory(from: source, byteCount: count) }
    }

    /// `count` bytes filled by `fill` (called once, before the bytes are shared).
    init(count: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 16)
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    deinit { base.deallocate() }
}

extension ImageSource.PixelFormat {
    /// `height` rows of `width` pixels of this format read from `bytes`, rows `bytesPerRow` apart, packed
    /// without padding; BGRA turned into RGBA. The caller has checked that `bytes` holds them.
    func packed(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> PinnedBytes {
        let rowBytes = width * bytesPerPixel
        return PinnedBytes(count: rowBytes * height) { out in
            guard let src = bytes.baseAddress, let dst = out.baseAddress else { return }
            for row in 0..<height {
                let from = src + row * bytesPerRow, to = dst + row * rowBytes
                to.copyMemory(from: from, byteCount: rowBytes)
                guard self == .bgra8 else { continue }
                let pixels = to.assumingMemoryBound(to: UInt8.self)
                for i in stride(from: 0, to: rowBytes, by: 4) { pixels.swapAt(i, i + 2) }
            }
        }
    }
}

private extension UnsafeMutablePointer<UInt8> {
    func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}
