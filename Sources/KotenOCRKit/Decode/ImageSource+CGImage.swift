#if canImport(CoreGraphics)
import CoreGraphics

extension ImageSource {
    /// Wraps a `CGImage` (Apple platforms): drawn once into 8-bit RGBA over white (so transparency reads as
    /// paper), then as `init(pixels:width:height:bytesPerRow:format:)`. Throws `ImageError.invalidPixels` when it
    /// cannot be drawn, `.tooLarge` over `maxPixels`.
    /// Not compiled or tested yet: no Apple platform is built here (README, "Platforms").
    public init(cgImage: CGImage, name: String = ImageSource.memoryName,
                maxPixels: Int = ImageSource.defaultMaxPixels) throws {
        let width = cgImage.width, height = cgImage.height
        guard width > 0, height > 0 else { throw ImageError.invalidPixels(path: name, reason: "\(width)×\(height) pixels: no image") }
        let area = width.multipliedReportingOverflow(by: height)
        if area.overflow || area.partialValue > maxPixels {
            throw ImageError.tooLarge(path: name, width: width, height: height, limit: maxPixels)
        }
        let bytesPerRow = width * 4
        var rgba = [UInt8](repeating: 255, count: bytesPerRow * height)
        let drawn = rgba.withUnsafeMutableBytes { buffer -> Bool in
            guard let context = CGContext(data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                                          bytesPerRow: bytesPerRow, space: CGColorSpaceCreateDeviceRGB(),
                                          bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue) else { return false }
            context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
            context.fill(CGRect(x: 0, y: 0, width: width, height: height))
            context.draw(cgImage, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        guard drawn else { throw ImageError.invalidPixels(path: name, reason: "Core Graphics could not draw the image") }
        try self.init(pixels: rgba, width: width, height: height, bytesPerRow: bytesPerRow, format: .rgba8, name: name,
                      maxPixels: maxPixels)
    }
}
#endif
