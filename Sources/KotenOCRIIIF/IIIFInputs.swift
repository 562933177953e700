import Foundation
import KotenOCRKit

extension IIIFBook {
    /// The book's canvases as pages of a batch (`BatchPlan.prepare(files:listed:remote:options:)`), in the
    /// manifest's order, `pages` (1-based, as `--pages`) selecting canvases. Canvas `i` labelled `L` writes
    /// `<folderName>/<i>_<L>.*` below the output folder (`IIIFNames.canvasStem`), and its image is fetched just
    /// before it is read into the hidden file `<folderName>/.<i>_<L>.iiif-image` there (without an output folder,
    /// into `scratch`), removed once its results are written. Throws `PageSelection.PastEnd` when `pages` asks for
    /// a canvas past the last.
    package func batchInputs(pages: PageSelection?, size: IIIFImageSize, outputDirectory: URL?, scratch: URL,
                             client: HTTPClient = .shared, limits: HTTPClient.Limits = .init()) throws(PageSelection.PastEnd) -> [BatchInput] {
        let selected = try pages?.pages(of: canvases.count) ?? Array(canvases.indices)
        let folder = folderName
        return selected.map { index in
            let canvas = canvases[index]
            let stem = IIIFNames.canvasStem(index: canvas.index, label: canvas.label)
            let relative = folder + "/" + stem + ".jpg"
            let root = outputDirectory ?? scratch
            let file = root.appendingPathComponent(folder).appendingPathComponent("." + stem + ".iiif-image")
            let source = IIIFCanvasSource(presentation: presentation, manifest: id, label: label, attribution: attribution, rights: rights,
                                          canvas: canvas.id, canvasLabel: canvas.label, canvasIndex: canvas.index,
                                          canvasWidth: canvas.width, canvasHeight: canvas.height, image: canvas.image)
            let fetcher = IIIFCanvasFetcher(canvas: canvas, size: size, client: client, limits: limits)
            let name = "\(self.source) canvas \(canvas.index)" + (canvas.label.map { " (\($0))" } ?? "")
            return BatchInput(remote: RemotePage(fetcher: fetcher, canvas: source), file: FileSystemPath(file.path),
                              name: name, relativePath: relative)
        }
    }
}
