import Foundation

/// `viz` (`<stem>.viz.png`, `.viz.jpg` for a JPEG source): the page, its longer side at most `maxSide` pixels,
/// with each line's outline in its orientation's colour (horizontal blue, vertical vermilion, ruby green: the
/// Okabe–Ito colours, told apart with colour blindness) and its reading-order number (from 1) on a white label at
/// the line's start (top-left of a horizontal line, top-right of a vertical one). Drawn by libvips
/// (`vips_draw_line`, `vips_draw_rect`, `vips_text`). docs/formats.md, "viz".
enum PageViz {
    static let maxSide = 2400
    static let horizontal = VipsCanvas.Colour(0, 114, 178)
    static let vertical = VipsCanvas.Colour(213, 94, 0)
    static let ruby = VipsCanvas.Colour(0, 158, 115)

    /// The picture of `page` read from `image`. Throws `ImageError` naming the file.
    static func picture(_ page: PageResult, image: ImageSource) throws -> Data {
        let canvas = try VipsCanvas(try image.displayImage(maxSide: maxSide), name: image.name)
        let sx = Double(canvas.width) / Double(max(1, page.source.width))
        let sy = Double(canvas.height) / Double(max(1, page.source.height))
        let side = Double(max(canvas.width, canvas.height))
        let pen = max(2, Int((side / 900).rounded()))
        let font = "sans bold \(max(14, Int((side / 70).rounded())))"
        for line in page.formatLines {
            let colour = line.line.kind == "ruby" ? ruby : line.isVertical ? vertical : horizontal
            let corners = line.corners.map { (x: $0.x * sx, y: $0.y * sy) }
            for (index, corner) in corners.enumerated() {
                canvas.line(from: corner, to: corners[(index + 1) % corners.count], colour: colour, thickness: pen)
            }
            guard let label = canvas.textMask(String(line.number), font: font) else { continue }
            let padding = pen
            let (w, h) = (label.width + 2 * padding, label.height + 2 * padding)
            let anchor = line.isVertical ? (x: Int(corners[1 % corners.count].x.rounded()) - w, y: Int(corners[0].y.rounded()))
                                         : (x: Int(corners[0].x.rounded()), y: Int(corners[0].y.rounded()) - h)
            let x = min(max(0, anchor.x), canvas.width - w), y = min(max(0, anchor.y), canvas.height - h)
            canvas.rectangle(x: x, y: y, width: w, height: h, colour: .init(255, 255, 255), filled: true)
            canvas.rectangle(x: x, y: y, width: w, height: h, colour: colour, filled: false)
            canvas.paint(label, x: x + padding, y: y + padding, colour: colour)
        }
        return try canvas.encoded(image.isJPEG ? .jpeg(quality: 90) : .png, name: image.name)
    }
}
