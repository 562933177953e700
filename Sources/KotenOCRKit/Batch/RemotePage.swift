import Foundation

/// Fetches a page's image to a file just before the batch opens it: the hook through which a page that is not a
/// file yet (a IIIF canvas, docs/iiif.md) becomes one. The library holds no network code; the fetcher is given
/// by the front end (the CLI's is KotenOCRIIIF's, over libcurl).
package protocol PageFetcher: Sendable {
    /// Writes the page's image to `file` (a temporary file renamed into place, so `file` is whole or absent).
    /// Does not fetch it again when `file` is already there: a page fetched by a run that was killed before it
    /// finished is read from that file. Returns how the results name the page's source (`PageResult.SourceInfo.path`,
    /// ALTO `fileName`, PAGE `imageFilename`): the address of the image whose pixels are read, never `file`, the
    /// same on a run that finds `file` there; nil: the batch input's own name. Throws an error whose description is
    /// one line giving the reason.
    func fetch(to file: URL) async throws -> String?

    /// Removes what `fetch(to:)` left for the page once its results are written: `file`, and anything kept beside
    /// it (the default removes `file`).
    func discard(_ file: URL)
}

extension PageFetcher {
    package func discard(_ file: URL) { try? FileManager.default.removeItem(at: file) }
}

/// A page of a batch whose image is fetched just before it is read (`BatchInput.remote`): its fetcher and the
/// canvas it is, whose metadata goes into the page's result (`PageResult.SourceInfo.iiif`). The fetched file is
/// removed once the page's results are written.
package struct RemotePage: Sendable {
    package let fetcher: any PageFetcher
    package let canvas: IIIFCanvasSource

    package init(fetcher: any PageFetcher, canvas: IIIFCanvasSource) {
        self.fetcher = fetcher
        self.canvas = canvas
    }
}
