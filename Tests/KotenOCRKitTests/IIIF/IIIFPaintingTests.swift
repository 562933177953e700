import Foundation
import Testing
@testable import KotenOCRIIIF
@testable import KotenOCRKit

/// What paints a canvas and how its image is asked for, without the network: the shapes libraries and the IIIF
/// cookbook publish (docs/iiif.md, "What is read", "Sizes", "Parts and turns of an image").
@Suite("IIIF paintings, parts and Image API versions")
struct IIIFPaintingTests {
    /// A 3.0 manifest of one canvas per body.
    static func book3(_ bodies: [String]) throws -> IIIFBook {
        let canvases = bodies.enumerated().map { index, body in
            """
            {"id": "https://x/c\(index + 1)", "type": "Canvas", "width": 100, "height": 200, "items": [{"type": "AnnotationPage",
             "items": [{"type": "Annotation", "motivation": "painting", "body": \(body)}]}]}
            """
        }
        let json = """
        {"@context": "http://iiif.io/api/presentation/3/context.json", "id": "https://x/m", "type": "Manifest", "items": [\(canvases.joined(separator: ","))]}
        """
        return try IIIFBook.parse(Data(json.utf8), source: "m.json")
    }

    /// A 2.1 manifest of one canvas per resource; the label given as it is.
    static func book2(_ resources: [String], label: String = "\"本\"") throws -> IIIFBook {
        let canvases = resources.enumerated().map { index, resource in
            """
            {"@id": "https://x/c\(index + 1)", "@type": "sc:Canvas", "label": \(label), "width": 100, "height": 200,
             "images": [{"@type": "oa:Annotation", "motivation": "sc:painting", "resource": \(resource)}]}
            """
        }
        let json = """
        {"@context": "http://iiif.io/api/presentation/2/context.json", "@id": "https://x/m", "@type": "sc:Manifest", "label": \(label),
         "sequences": [{"canvases": [\(canvases.joined(separator: ","))]}]}
        """
        return try IIIFBook.parse(Data(json.utf8), source: "m.json")
    }

    @Test("2.1: oa:Choice reads its default (else its first item); oa:SpecificResource its full image and selector; Image API 1.x services as Gallica writes them")
    func presentation2() throws {
        let book = try Self.book2([
            """
            {"@type": "oa:Choice", "default": {"@id": "https://x/d.jpg", "@type": "dctypes:Image",
              "service": {"@context": "http://iiif.io/api/image/1/context.json", "@id": "https://x/s1",
                          "profile": "http://library.stanford.edu/iiif/image-api/1.1/compliance.html#level2"}},
             "item": [{"@id": "https://x/ir.jpg", "@type": "dctypes:Image"}]}
            """,
            #"{"@type": "oa:Choice", "item": [{"@id": "https://x/first.jpg", "@type": "dctypes:Image"}, {"@id": "https://x/second.jpg"}]}"#,
            """
            {"@type": "oa:SpecificResource", "full": {"@id": "https://x/f.jpg", "@type": "dctypes:Image",
              "service": {"@id": "https://x/s3", "profile": "http://iiif.io/api/image/1/level1.json"}},
             "selector": {"@context": "http://iiif.io/api/annex/openannotation/context.json", "@type": "iiif:ImageApiSelector",
                          "region": "10,20,30,40", "rotation": "270"}}
            """,
            #"{"@id": "https://x/sound.mp3", "@type": "dctypes:Sound", "format": "audio/mpeg"}"#,
        ])
        #expect(book.canvases.map(\.image) == ["https://x/d.jpg", "https://x/first.jpg", "https://x/f.jpg"])
        #expect(book.canvases[0].service == .init(id: "https://x/s1", version: 1))
        #expect(book.canvases[2].service == .init(id: "https://x/s3", version: 1))
        #expect(book.canvases[2].selection == IIIFImageSelection(region: .pixels(10, 20, 30, 40), quarterTurns: 3))
        #expect(book.skipped.map(\.index) == [4] && book.skipped.first?.painting == "sound (audio/mpeg)")
        #expect(book.canvasCount == 4)
    }

    @Test("3.0: SpecificResource with an ImageApiSelector or a FragmentSelector, a Choice of parts, an image id's #xywh; video, sound, PDF skipped; a mirror refused")
    func presentation3() async throws {
        let book = try Self.book3([
            #"{"type": "SpecificResource", "source": {"id": "https://x/a.jpg", "type": "Image", "width": 1000, "height": 800, "service": [{"id": "https://x/sa", "type": "ImageService3", "profile": "level1"}]}, "selector": {"type": "ImageApiSelector", "rotation": "90"}}"#,
            #"{"type": "SpecificResource", "source": {"id": "https://x/spread.jpg", "type": "Image"}, "selector": [{"type": "SvgSelector", "value": "<svg/>"}, {"type": "FragmentSelector", "value": "xywh=percent:50,0,50,100"}]}"#,
            #"{"type": "Choice", "items": [{"type": "SpecificResource", "source": {"id": "https://x/c.jpg", "type": "Image"}, "selector": {"type": "FragmentSelector", "value": "xywh=pixel:5,6,7,8"}}]}"#,
            #"{"id": "https://x/whole.jpg#xywh=1,2,3,4", "type": "Image"}"#,
            #"{"type": "SpecificResource", "source": "https://x/iiif/bare", "selector": {"type": "ImageApiSelector", "region": "pct:0,0,50,50"}}"#,
            #"{"type": "SpecificResource", "source": {"id": "https://x/m.jpg", "type": "Image"}, "selector": {"type": "ImageApiSelector", "rotation": "!0"}}"#,
            #"{"id": "https://x/v.mp4", "type": "Video", "format": "video/mp4"}"#,
            #"{"id": "https://x/s.m4a", "type": "Sound", "format": "audio/mp4"}"#,
            #"{"id": "https://x/b.pdf", "type": "Text", "format": "application/pdf"}"#,
        ])
        #expect(book.canvases.map(\.image) == ["https://x/a.jpg", "https://x/spread.jpg", "https://x/c.jpg", "https://x/whole.jpg", "https://x/iiif/bare", "https://x/m.jpg"])
        #expect(book.canvases[0].selection == IIIFImageSelection(quarterTurns: 1) && book.canvases[0].imageWidth == 1000)
        #expect(book.canvases[1].selection.region == .percent(50, 0, 50, 100))
        #expect(book.canvases[2].selection.region == .pixels(5, 6, 7, 8))
        #expect(book.canvases[3].selection.region == .pixels(1, 2, 3, 4))
        #expect(book.canvases[4].service == .init(id: "https://x/iiif/bare", version: 0) && book.canvases[4].selection.region == .percent(0, 0, 50, 50))
        #expect(book.canvases[5].selection.unsupported != nil)
        // Numbers past any image, as a hostile manifest may write them: no region understood, no crash.
        #expect(IIIFImageSelection.fragment("xywh=1e300,0,10,10") == nil && IIIFImageSelection.imageAPIRegion("0,0,1e300,5") == nil)
        #expect(IIIFImageSelection.parse(["type": "ImageApiSelector", "rotation": "1e300"])?.unsupported != nil)
        #expect(IIIFBook.int(1e300) == 0 && IIIFBook.int(12.0) == 12)
        #expect(book.skipped.map(\.painting) == ["a video (video/mp4)", "sound (audio/mp4)", "a PDF (application/pdf)"])
        #expect(book.skipped.map(\.index) == [7, 8, 9])
        // --pages counts every canvas: 7-9 selects only skipped ones, 1 the first.
        let scratch = FileManager.default.temporaryDirectory
        #expect(try book.batchInputs(pages: try PageSelection(parsing: "7-9"), size: .max, outputDirectory: nil, scratch: scratch).isEmpty)
        #expect(try book.batchInputs(pages: try PageSelection(parsing: "1"), size: .max, outputDirectory: nil, scratch: scratch).count == 1)
        #expect(book.skippedLines(pages: try PageSelection(parsing: "8")) == ["m.json canvas 8: skipped: it paints sound (audio/mp4), not an image"])
        // A mirrored image is refused before anything is fetched.
        await #expect(throws: IIIFBook.Failure.self) {
            _ = try await IIIFImageRequest.plan(of: book.canvases[5], size: .max, client: .shared, limits: .init(),
                                                scratch: scratch.appendingPathComponent("unused"))
        }
    }

    @Test("language maps: 3.0's as they are, 2.1's @language values gathered, plain strings under none")
    func labels() throws {
        let two = try Self.book2(["{\"@id\": \"https://x/i.jpg\"}"],
                                 label: #"[{"@value": "源氏物語", "@language": "ja"}, {"@value": "The Tale of Genji", "@language": "en"}, "げんじ"]"#)
        #expect(two.labels == ["ja": ["源氏物語"], "en": ["The Tale of Genji"], "none": ["げんじ"]] && two.label == "源氏物語")
        #expect(two.canvases[0].labels == two.labels)
        #expect(IIIFBook.languageMap(["en": ["Book"], "ja": ["本", "巻一"]]) == ["en": ["Book"], "ja": ["本", "巻一"]])
        #expect(IIIFBook.languageMap("本") == ["none": ["本"]] && IIIFBook.languageMap(nil) == nil)
    }

    @Test("Image API 1.x: quality native, level 1 sizes as w, or ,h; a part or turn asked of the service by its level, else cut and turned here")
    func requests() {
        let v1: [String: Any] = ["@context": "http://library.stanford.edu/iiif/image-api/1.1/context.json", "width": 5000, "height": 7000,
                                 "profile": "http://library.stanford.edu/iiif/image-api/1.1/compliance.html#level1"]
        #expect(IIIFImageRequest.plan(base: "https://g/f1", info: v1, version: 2, selection: .whole, size: .longSide(3840)).url
                == "https://g/f1/full/,3840/0/native.jpg")
        var small = v1
        (small["width"], small["height"], small["profile"]) = (600, 800, "http://library.stanford.edu/iiif/image-api/1.1/compliance.html#level2")
        #expect(IIIFImageRequest.plan(base: "https://g/f1", info: small, version: 1, selection: .whole, size: .longSide(3840)).url
                == "https://g/f1/full/full/0/native.jpg")
        // Level 1 (3.0) cuts in pixels but does not turn: the turn is made here, named by the URL alone.
        let v3: [String: Any] = ["@context": "http://iiif.io/api/image/3/context.json", "width": 6000, "height": 4000, "profile": "level1"]
        let turned = IIIFImageRequest.plan(base: "https://c/i", info: v3, version: 3,
                                           selection: IIIFImageSelection(region: .pixels(3000, 0, 3000, 4000), quarterTurns: 1), size: .longSide(3840))
        #expect(turned.url == "https://c/i/3000,0,3000,4000/,3840/0/default.jpg" && turned.local == IIIFImageSelection(quarterTurns: 1))
        #expect(turned.name == turned.url)
        // Declared features add to the level: rotationBy90s.
        var features = v3
        features["extraFeatures"] = ["rotationBy90s"]
        #expect(IIIFImageRequest.plan(base: "https://c/i", info: features, version: 3, selection: IIIFImageSelection(quarterTurns: 2),
                                      size: .max).url == "https://c/i/full/max/180/default.jpg")
        // Level 2 (2.x): region in percent and the turn asked of it.
        let v2: [String: Any] = ["@context": "http://iiif.io/api/image/2/context.json", "width": 6000, "height": 4000,
                                 "profile": ["http://iiif.io/api/image/2/level2.json"]]
        let both = IIIFImageRequest.plan(base: "https://c/i", info: v2, version: 2,
                                         selection: IIIFImageSelection(region: .percent(50, 0, 50, 100), quarterTurns: 3), size: .longSide(3840))
        #expect(both.url == "https://c/i/pct:50,0,50,100/!3840,3840/270/default.jpg" && both.local == nil)
        // Level 0: the listed size fetched whole, the part cut here at that scale, named as a fragment in percent.
        let v0: [String: Any] = ["@context": "http://iiif.io/api/image/2/context.json", "width": 4000, "height": 3000,
                                 "profile": ["http://iiif.io/api/image/2/level0.json"], "sizes": [["width": 2000, "height": 1500]]]
        let cut = IIIFImageRequest.plan(base: "https://c/i", info: v0, version: 2,
                                        selection: IIIFImageSelection(region: .pixels(2000, 0, 2000, 3000)), size: .longSide(3840))
        #expect(cut.url == "https://c/i/full/2000,/0/default.jpg" && cut.name == cut.url + "#xywh=percent:50,0,50,100")
        #expect(cut.local?.cut(fetched: (2000, 1500), full: (cut.fullWidth, cut.fullHeight)).map { [$0.0, $0.1, $0.2, $0.3] } == [1000, 0, 2000, 1500])
        // An unknown version (a bare source URI) is what its info.json says.
        #expect(IIIFImageRequest.plan(base: "https://c/i", info: v1, version: 0, selection: .whole, size: .max).url == "https://c/i/full/full/0/native.jpg")
        #expect(IIIFImageRequest.version(["http://iiif.io/api/image/1/context.json"]) == 1)
        #expect(IIIFImageRequest.version(["http://library.stanford.edu/iiif/image-api/compliance.html#level1"]) == 1)
    }

    @Test("bodies that are no image by their first bytes: an MP4 or a PDF named as such; HEIF and AVIF are images")
    func signatures() {
        func head(_ brand: String) -> Data { Data([0, 0, 0, 0x18]) + Data(("ftyp" + brand).utf8) + Data(count: 8) }
        #expect(!HTTPClient.isImage(head("mp42")) && !HTTPClient.isImage(head("isom")) && !HTTPClient.isImage(head("M4A ")))
        #expect(HTTPClient.isImage(head("heic")) && HTTPClient.isImage(head("avif")) && HTTPClient.isImage(head("mif1")))
        #expect(HTTPClient.kind(head("isom")) == "an MP4 or QuickTime file (brand isom: sound or video)")
        #expect(HTTPClient.kind(Data("%PDF-1.7".utf8)) == "a PDF")
    }

    @Test("a part cut and turned here: the pixels of the part, turned clockwise")
    func encodedPart() throws {
        // 4 × 2 pixels, each its own grey level: row 0 is 10 20 30 40, row 1 is 50 60 70 80.
        let grey: [UInt8] = [10, 20, 30, 40, 50, 60, 70, 80]
        let rgb = grey.flatMap { [$0, $0, $0] }
        let image = try ImageSource(pixels: rgb, width: 4, height: 2, bytesPerRow: 12, format: .rgb8)
        let part = try ImageSource(data: try image.encodedPart(PixelBox(x1: 1, y1: 0, x2: 3, y2: 2), clockwiseQuarterTurns: 1)).decode()
        // The part 20 30 / 60 70 turned clockwise: 60 20 / 70 30.
        #expect(part.width == 2 && part.height == 2)
        #expect(stride(from: 0, to: part.pixels.count, by: 3).map { part.pixels[$0] } == [60, 20, 70, 30])
        #expect(throws: ImageError.self) { _ = try image.encodedPart(PixelBox(x1: 9, y1: 9, x2: 12, y2: 12), clockwiseQuarterTurns: 0) }
        // From a file (a JPEG and a PNG as fetched, decoded top to bottom unless opened for random access): the right
        // page of a spread turned a quarter, then a half.
        let folder = try TestPaths.temporaryDirectory("iiif-part")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, file) in [("photo.jpg", TestPaths.image("ndlocr-lite/digidepo_2531162_0024.jpg")),
                             ("page.png", TestPaths.image("ndlocr-lite/tategaki2026-04-24-094138.png"))] {
            let page = try ImageSource(file: FileSystemPath(file.path))
            let right = PixelBox(x1: page.width / 2, y1: 10, x2: page.width, y2: page.height - 10)
            for turns in [1, 2] {
                let made = try ImageSource(data: try page.encodedPart(right, clockwiseQuarterTurns: turns))
                let size = turns == 1 ? (right.height, right.width) : (right.width, right.height)
                #expect((made.width, made.height) == size, "\(name), \(turns) quarter turns")
            }
        }
    }
}
