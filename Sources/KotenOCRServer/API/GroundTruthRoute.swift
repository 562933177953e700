import Foundation
import KotenOCRCorpus
import KotenOCRKit

/// `GET /v1/jobs/{id}/groundtruth` (docs/serve.md, "Ground truth"): the proofread lines of a job as training data,
/// a zip made by the jobs wing (`JobFiles.groundTruthZip`) of the corpus's pages.
extension OCRService {
    /// Which lines the zip holds: `proofread` (the default) every line of the pages marked proofread, `corrected`
    /// every line a person corrected or added, on any page.
    enum GroundTruthScope: String, CaseIterable {
        case proofread, corrected
    }

    static var scopeParameter: OperationDoc.Parameter {
        OperationDoc.Parameter(name: "scope", description: "proofread (the default): every line of the pages marked proofread; corrected: every line corrected or added, on any page",
                               schema: ["type": "string", "enum": .strings(GroundTruthScope.allCases.map(\.rawValue))])
    }

    func groundTruth(_ request: APIRequest) async throws -> HTTPResponse {
        let job = try job(request)
        let text = request.parameters["scope"] ?? GroundTruthScope.proofread.rawValue
        guard let scope = GroundTruthScope(rawValue: text.lowercased()) else {
            throw APIError(.badOption, "scope must be proofread or corrected, not \(text.prefix(40))")
        }
        guard job.read({ $0.state == .done }) else { throw APIError(.notDone, "the job is not done") }
        let corpus = self.corpus, files = store.files, id = job.id, numbers = job.record.pages.map(\.n)
        let (pages, revisions) = try await Self.corpusCall { () throws -> ([GroundTruthPage], Int) in
            var pages: [GroundTruthPage] = []
            var revisions = 0
            for n in numbers {
                guard let page = try corpus.page(job: id, page: n), let json = files.result(job, n, .json) else { continue }
                revisions += page.revision
                let lines = page.lines.filter { line in
                    guard !line.deleted, !line.text.trimmingCharacters(in: .whitespaces).isEmpty else { return false }
                    return scope == .proofread ? page.state == .proofread : line.corrected || line.added
                }
                guard !lines.isEmpty || (scope == .proofread && page.state == .proofread) else { continue }
                let fixes = try Self.corrections(page, lineCount: Self.textLineCount(json))
                pages.append(GroundTruthPage(n: n, lines: lines.map(Self.groundTruthLine), corrections: fixes))
            }
            return (pages, revisions)
        }
        guard !pages.isEmpty else {
            throw APIError(.notFound, scope == .proofread ? "no page of the job is marked proofread (or ?scope=corrected for every corrected line)"
                                                          : "no line of the job is corrected or added")
        }
        let prefix = "groundtruth-\(scope.rawValue)-"
        let zip: URL
        do {
            zip = try await files.groundTruthZip(job, pages, name: "\(prefix)r\(revisions)", prefix: prefix, engine: engine)
        } catch let error as JobError {
            throw APIError(error)
        } catch {
            throw APIError(reading: error, name: "the ground truth", timeout: options.pageTimeout)
        }
        let stem = DownloadName.stem(inputName: job.record.inputs.first?.name, manifest: job.record.manifest)
        let suffix = "-groundtruth.zip"
        return try Representation.file(zip, contentType: "application/zip",
                                       headers: [("Content-Disposition", DownloadName.contentDisposition("\(stem)\(suffix)", fallback: "\(job.id)\(suffix)"))],
                                       for: request)
    }

    /// A corpus line as the zip takes it: its text on one line (a tab or line break, which only the engine's text
    /// could hold, as a space), its outline.
    private static func groundTruthLine(_ line: CorpusLine) -> GroundTruthPage.Line {
        let text = String(line.text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        let b = line.box
        return GroundTruthPage.Line(
            id: line.id, text: text,
            outline: LineOutline(polygon: line.polygon.compactMap { $0.count == 2 ? Point(x: $0[0], y: $0[1]) : nil },
                                 box: PixelBox(x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y + b.height),
                                 vertical: line.orientation.map { $0 == LineOrientation.vertical.rawValue }))
    }
}
