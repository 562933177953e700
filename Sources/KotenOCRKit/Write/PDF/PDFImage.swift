import Foundation

/// The page image of a searchable PDF page: an image XObject's data and dictionary entries, and the matrix that
/// draws it upright on the page. A JPEG source is passed through (`DCTDecode`, its bytes unchanged, EXIF
/// orientation applied by the matrix); anything else is the upright page (`ImageSource.displayImage`) encoded
/// losslessly as PNG by libvips, whose compressed rows are PDF's `FlateDecode` with PNG predictors as they are.
struct PDFImage: Codable, Equatable {
    /// Pixels as stored (before the EXIF orientation is applied).
    var width: Int
    var height: Int
    /// `DeviceGray`, `DeviceRGB` or `DeviceCMYK`.
    var colourSpace: String
    /// `DCTDecode` or `FlateDecode`.
    var filter: String
    /// `/DecodeParms` dictionary text, if any.
    var decodeParameters: String?
    /// `/Decode` array text, if any (Adobe's inverted CMYK JPEGs).
    var decode: String?
    /// The EXIF orientation (1–8) the drawing matrix applies; 1 for an image already upright.
    var orientation: Int
    /// The stream's bytes, as the filter reads them.
    var data: Data

    /// The image of `source`: its JPEG bytes when it is a JPEG PDF can hold (baseline or progressive, 8-bit,
    /// 1, 3 or 4 components), otherwise the upright page as PNG rows. Throws `ImageError` naming the file.
    static func of(_ source: ImageSource) throws -> PDFImage {
        if source.isJPEG, let bytes = try source.sourceBytes(), let jpeg = JPEGHeader(bytes) {
            return PDFImage(width: jpeg.width, height: jpeg.height,
                            colourSpace: ["DeviceGray", "DeviceGray", "DeviceRGB", "DeviceRGB", "DeviceCMYK"][jpeg.components],
                            filter: "DCTDecode", decodeParameters: nil,
                            decode: jpeg.components == 4 && jpeg.adobe ? "[1 0 1 0 1 0 1 0]" : nil,
                            orientation: source.orientation, data: bytes)
        }
        let png = try source.encodedDisplay(.png)
        guard let rows = PNGRows(png) else {
            throw ImageError.corrupt(path: source.name, detail: "libvips wrote a PNG this writer cannot read")
        }
        return PDFImage(width: rows.width, height: rows.height, colourSpace: rows.colours == 1 ? "DeviceGray" : "DeviceRGB",
                        filter: "FlateDecode",
                        decodeParameters: "<< /Predictor 15 /Colors \(rows.colours) /BitsPerComponent 8 /Columns \(rows.width) >>",
                        decode: nil, orientation: 1, data: rows.data)
    }

    /// The `cm` matrix [a b c d e f] that draws the image's unit square upright on a page of `pageWidth` ×
    /// `pageHeight` points (the upright image fills the page). EXIF orientations: 2 mirrored, 3 turned 180°,
    /// 4 flipped, 5 transposed, 6 turned 90° clockwise, 7 transversed, 8 turned 90° anticlockwise.
    func matrix(pageWidth w: Double, pageHeight h: Double) -> [Double] {
        switch orientation {
        case 2: return [-w, 0, 0, h, w, 0]
        case 3: return [-w, 0, 0, -h, w, h]
        case 4: return [w, 0, 0, -h, 0, h]
        case 5: return [0, -h, -w, 0, w, h]
        case 6: return [0, -h, w, 0, 0, h]
        case 7: return [0, h, w, 0, 0, 0]
        case 8: return [0, h, -w, 0, w, 0]
        default: return [w, 0, 0, h, 0, 0]
        }
    }
}

/// What PDF needs from a JPEG's frame header: size, components, and whether Adobe's APP14 marker is there (its
/// CMYK is stored inverted). Nil for a JPEG PDF's `DCTDecode` cannot read: lossless, arithmetic-coded,
/// hierarchical or 12-bit.
struct JPEGHeader {
    let width: Int
    let height: Int
    let components: Int
    let adobe: Bool

    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(1 << 20))
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var adobe = false
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            if marker == 0xEE, length >= 7, bytes[(i + 4)..<(i + 9)].elementsEqual("Adobe".utf8) { adobe = true }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                // SOF0 baseline, SOF1 extended, SOF2 progressive (Huffman) are what DCTDecode reads.
                guard [0xC0, 0xC1, 0xC2].contains(marker), length >= 8, bytes[i + 4] == 8 else { return nil }
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
                let width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                let components = Int(bytes[i + 9])
                guard width > 0, height > 0, [1, 3, 4].contains(components) else { return nil }
                self.width = width
                self.height = height
                self.components = components
                // APP14 comes before the frame header.
                self.adobe = adobe
                return
            }
            i += 2 + length
        }
        return nil
    }
}

/// The rows of an 8-bit, non-interlaced grey or RGB PNG as PDF's `FlateDecode` with `/Predictor 15` reads them:
/// its IDAT chunks' bytes joined (a zlib stream of filtered rows).
struct PNGRows {
    let width: Int
    let height: Int
    let colours: Int
    let data: Data

    init?(_ png: Data) {
        let bytes = [UInt8](png)
        guard bytes.count > 33, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        var width = 0, height = 0, colours = 0
        var rows = Data()
        var i = 8
        while i + 12 <= bytes.count {
            let length = u32(i)
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            guard i + 12 + length <= bytes.count else { return nil }
            let body = (i + 8)..<(i + 8 + length)
            switch type {
            case "IHDR":
                guard length >= 13 else { return nil }
                width = u32(body.lowerBound)
                height = u32(body.lowerBound + 4)
                let depth = bytes[body.lowerBound + 8], colourType = bytes[body.lowerBound + 9]
                let interlace = bytes[body.lowerBound + 12]
                guard depth == 8, interlace == 0, colourType == 0 || colourType == 2 else { return nil }
                colours = colourType == 0 ? 1 : 3
            case "IDAT": rows.append(contentsOf: bytes[body])
            default: break
            }
            i += 12 + length
        }
        guard width > 0, height > 0, colours > 0, !rows.isEmpty else { return nil }
        (self.width, self.height, self.colours, self.data) = (width, height, colours, rows)
    }
}
