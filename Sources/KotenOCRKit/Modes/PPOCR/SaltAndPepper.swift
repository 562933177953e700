/// Salt-and-pepper noise on a page: told from the page's own evidence, and removed (docs/reference-pipelines.md §4,
/// "Step 1, salt and pepper").
///
/// The evidence is taken on the detector's first input (the page reduced to 960, decoded anyway): the ink (pixels at
/// or under Otsu's split of the grey page) held in 8-connected pieces of one or two pixels. Printed text has almost
/// none (at most 0.5 % of its ink, 10 in 10,000 pixels on the sweep's and `make quality`'s pages, kuzushiji scans
/// included); 1 % salt and pepper gives 3–9 % of the ink and 33–42 in 10,000 pixels, 10 % up to 29 % and 420.
/// A page is taken as noisy only past both bounds (`minInkShare`, `minAreaShare`): a clean page is read exactly as
/// before. A noisy page is cleaned at full resolution (`despeckled`): every 8-connected piece of ink, or of paper
/// inside ink, of at most `maxSpeckPixels` pixels takes the median colour of its 3 × 3 neighbourhood. Unlike a median
/// filter over the whole page it leaves strokes alone (a 3 × 3 median thins a serif face's one-pixel strokes:
/// 日暮, 硯, 書 were lost from the sweep's six-column page).
enum SaltAndPepper {
    /// What a page shows of salt and pepper: its ink pixels, those in pieces of one or two pixels, all its pixels.
    struct Evidence: Sendable, Equatable {
        var specks: Int
        var ink: Int
        var pixels: Int

        /// Whether the page is noisy: specks at least `minInkShare` of the ink and `minAreaShare` of the page.
        var isNoisy: Bool {
            specks > 0 && Double(specks) >= SaltAndPepper.minInkShare * Double(ink)
                && Double(specks) >= SaltAndPepper.minAreaShare * Double(pixels)
        }
    }

    /// Specks per ink pixel from which a page is noisy (clean pages: ≤ 0.005; 1 % noise: ≥ 0.028).
    static let minInkShare = 0.02
    /// Specks per page pixel from which a page is noisy (clean pages: ≤ 0.00104; 1 % noise: ≥ 0.0033).
    static let minAreaShare = 0.002
    /// The `reason` of the detector's pass over the cleaned page (the JSON's `detector.passes`).
    static let passReason = "salt and pepper"
    /// The largest piece of ink (or of paper within ink) `despeckled` removes, in pixels.
    static let maxSpeckPixels = 4

    /// The grey levels (mean of R, G, B) of `image`.
    static func grey(_ image: RGBImage) -> [UInt8] {
        var grey = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { p in
            for i in grey.indices { grey[i] = UInt8((Int(p[3 * i]) + Int(p[3 * i + 1]) + Int(p[3 * i + 2])) / 3) }
        }
        return grey
    }

    /// Otsu's split of `grey`: levels at or under it are ink. 0 for an image of one level.
    static func otsu(_ grey: [UInt8]) -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        for g in grey { histogram[Int(g)] += 1 }
        let total = Double(grey.count)
        let sum = histogram.indices.reduce(0.0) { $0 + Double($1 * histogram[$1]) }
        var below = 0.0, sumBelow = 0.0, best = -1.0, split = 0
        for t in 0..<255 {
            below += Double(histogram[t])
            sumBelow += Double(t * histogram[t])
            let above = total - below
            guard below > 0, above > 0 else { continue }
            let between = below * above * pow2(sumBelow / below - (sum - sumBelow) / above)
            if between > best { best = between; split = t }
        }
        return split
    }

    private static func pow2(_ x: Double) -> Double { x * x }

    /// The evidence of `image` (the detector's input).
    static func evidence(_ image: RGBImage) -> Evidence {
        let w = image.width, h = image.height
        guard w > 2, h > 2 else { return Evidence(specks: 0, ink: 0, pixels: w * h) }
        let grey = grey(image)
        let split = otsu(grey)
        var ink = [UInt8](repeating: 0, count: w * h)
        var inkCount = 0
        for i in grey.indices where Int(grey[i]) <= split { ink[i] = 1; inkCount += 1 }
        // Dark neighbours of each ink pixel (8-connected).
        func neighbours(_ x: Int, _ y: Int) -> (count: Int, last: Int) {
            var n = 0, last = -1
            for dy in -1...1 {
                let yy = y + dy
                guard yy >= 0, yy < h else { continue }
                for dx in -1...1 where dx != 0 || dy != 0 {
                    let xx = x + dx
                    guard xx >= 0, xx < w, ink[yy * w + xx] != 0 else { continue }
                    n += 1
                    last = yy * w + xx
                }
            }
            return (n, last)
        }
        var specks = 0
        for y in 0..<h {
            for x in 0..<w where ink[y * w + x] != 0 {
                let (n, other) = neighbours(x, y)
                // Alone, or one of a pair whose other pixel has no other neighbour.
                if n == 0 || (n == 1 && neighbours(other % w, other / w).count == 1) { specks += 1 }
            }
        }
        return Evidence(specks: specks, ink: inkCount, pixels: w * h)
    }

    /// `image` with every 8-connected piece of ink, and of paper enclosed in ink, of at most `maxSpeckPixels`
    /// pixels set to the median colour (channel by channel) of the 3 × 3 neighbourhood's other pixels. Ink is as in
    /// `evidence` (Otsu's split of the grey image).
    static func despeckled(_ image: RGBImage) -> RGBImage {
        let w = image.width, h = image.height
        guard w > 2, h > 2 else { return image }
        let grey = grey(image)
        let split = otsu(grey)
        var ink = [Bool](repeating: false, count: w * h)
        for i in grey.indices { ink[i] = Int(grey[i]) <= split }
        var speck = [Bool](repeating: false, count: w * h)
        var seen = [Bool](repeating: false, count: w * h)
        var stack: [Int] = [], piece: [Int] = []
        for start in 0..<(w * h) where !seen[start] {
            let kind = ink[start]
            stack.append(start)
            seen[start] = true
            piece.removeAll(keepingCapacity: true)
            while let i = stack.popLast() {
                if piece.count <= maxSpeckPixels { piece.append(i) }
                let x = i % w, y = i / w
                for dy in -1...1 {
                    let yy = y + dy
                    guard yy >= 0, yy < h else { continue }
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let xx = x + dx, j = yy * w + xx
                        guard xx >= 0, xx < w, !seen[j], ink[j] == kind else { continue }
                        seen[j] = true
                        stack.append(j)
                    }
                }
            }
            if piece.count <= maxSpeckPixels { for i in piece { speck[i] = true } }
        }
        var out = image
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                var values = [UInt8](repeating: 0, count: 9)
                for i in 0..<(w * h) where speck[i] {
                    let x = i % w, y = i / w
                    for c in 0..<3 {
                        var n = 0
                        for yy in max(0, y - 1)...min(h - 1, y + 1) {
                            for xx in max(0, x - 1)...min(w - 1, x + 1) where !speck[yy * w + xx] {
                                values[n] = src[(yy * w + xx) * 3 + c]
                                n += 1
                            }
                        }
                        guard n > 0 else { continue }
                        values[0..<n].sort()
                        dst[i * 3 + c] = values[(n - 1) / 2]
                    }
                }
            }
        }
        return out
    }
}
