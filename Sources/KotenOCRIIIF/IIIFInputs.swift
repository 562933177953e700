import Foundation
import KotenOCRKit

extension IIIFBook {
    /// The book's canvases painted by an image as pages of a batch (`BatchPlan.prepare(files:listed:remote:options:)`),
    /// in the manifest's order, `pages` (1-based, as `--pages`, counting every canvas) selecting canvases. Canvas
    /// `i` labelled `L` writes `<folderName>/<i>_<L>.*` below the output folder (`IIIFNames.canvasStem`), and its
    /// image is fetched just before it is read into the hidden file `<folderName>/.<i>_<L>.iiif-image` there
    /// (without an output folder, into `scratch`), removed once its results are written. Throws
    /// `PageSelection.PastEnd` when `pages` asks for a canvas past the last.
    package func batchInputs(pages: PageSelection?, size: IIIFImageSize, outputDirectory: URL?, scratch: URL,
                             client: HTTPClient = .shared, limits: HTTPClient.Limits = .init()) throws(PageSelection.PastEnd) -> [BatchInput] {
        let selected = Set(try pages?.pages(of: canvasCount) ?? Array(0..<canvasCount))
        let folder = folderName
        return canvases.filter { selected.contains($0.index - 1) }.map { canvas in
            let stem = IIIFNames.canvasStem(index: canvas.index, label: canvas.label)
            let relative = folder + "/" + stem + ".jpg"
            let root = outputDirectory ?? scratch
            let file = root.appendingPathComponent(folder).appendingPathComponent("." + stem + ".iiif-image")
            let source = IIIFCanvasSource(presentation: presentation, manifest: id, label: label, labels: labels,
                                          attribution: attribution, rights: rights, canvas: canvas.id, canvasLabel: canvas.label,
                                          canvasLabels: canvas.labels, canvasIndex: canvas.index, canvasWidth: canvas.width,
                                          canvasHeight: canvas.height, image: canvas.image)
            let fetcher = IIIFCanvasFetcher(canvas: canvas, size: size, client: client, limits: limits)
            return BatchInput(remote: RemotePage(fetcher: fetcher, canvas: source), file: FileSystemPath(file.path),
                              name: Self.name(source: self.source, index: canvas.index, label: canvas.label), relativePath: relative)
        }
    }

    /// The canvases `pages` selects (as `batchInputs`) that are not read, each as the line that says so:
    /// `<manifest> canvas 3 (label): skipped: it paints a video (video/mp4), not an image`.
    package func skippedLines(pages: PageSelection?) -> [String] {
        let selected = Set((try? pages?.pages(of: canvasCount)) ?? Array(0..<canvasCount))
        return skipped.filter { selected.contains($0.index - 1) }.map {
            "\(Self.name(source: source, index: $0.index, label: $0.label)): skipped: it paints \($0.painting), not an image"
        }
    }

    /// How errors name canvas `index` of the manifest at `source`: `<source> canvas 3 (label)`.
    static func name(source: String, index: Int, label: String?) -> String {
        "\(source) canvas \(index)" + (label.map { " (\($0))" } ?? "")
    }
}
