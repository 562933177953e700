import CVipsShim
import Foundation

/// The seam through which a PDF is checked before this process opens it (issue 17; docs/reliability.md, "PDFs:
/// opened under a limit"). A damaged page tree can make poppler, as libvips drives it, allocate without end while
/// a page is looked up: the process grows past gigabytes and never returns, and a batch would lose every page,
/// not one file. A guard opens the PDF where that cannot hurt — the command line's opens it in a child process
/// under a memory and a time limit — and refuses it if it does not come back.
///
/// The batch asks the guard of its options (`BatchOptions.pdfGuard`) about each PDF input before reading its
/// page count; a refused input is one failed input, its reason one line. Without a guard (the library's default:
/// an app on iOS cannot start processes) PDFs are opened in the calling process, unbounded.
package protocol PDFGuard: Sendable {
    /// Checks the PDF at `file` (a path as the file system holds it, named `file.display`). Returns when this process
    /// may open it; throws `PDFRefusal` when it may not. A PDF that merely fails to open (damaged, not a PDF) passes:
    /// opening it in this process then fails with its own `ImageError`.
    func check(_ file: FileSystemPath) throws(PDFRefusal)
}

/// Why a PDF was not opened: its check did not come back within the guard's limits, or could not run. `reason` is
/// one line, without the file's name (e.g. "PDF could not be opened within 60 s / 1 GB (stopped by the memory
/// limit; a damaged page tree?)").
package struct PDFRefusal: Error, Equatable, CustomStringConvertible {
    package let reason: String

    package init(reason: String) { self.reason = reason }

    package var description: String { reason }
}

extension ImageSource {
    /// Whether `file` is a PDF, from its first bytes (false for anything unreadable). Poppler is not started.
    package static func isPDF(at file: FileSystemPath) -> Bool {
        Vips.start()
        return (try? ImageOrigin.file(file).loader(name: file.display))?.hasPrefix("VipsForeignLoadPdf") ?? false
    }

    /// Whether encoded bytes in memory are a PDF, from their first bytes (as libvips recognises it; poppler is not
    /// started).
    package static func isPDF(_ data: Data) -> Bool {
        Vips.start()
        let loader = data.withUnsafeBytes { bytes in kv_loader(kv_input(path: nil, data: bytes.baseAddress, size: bytes.count)) }
        return loader.map { String(cString: $0).hasPrefix("VipsForeignLoadPdf") } ?? false
    }

    /// Opens every page of the PDF at `file` as the batch will, header only, all at once: the page count, each
    /// page found in the page tree and its size (poppler through libvips' pdfload; nothing is rendered). What a
    /// `PDFGuard` runs where it is bounded. Returns the number of pages. Throws `ImageError` naming the file (not a
    /// PDF, damaged, unreadable).
    package static func openPDFPages(of file: FileSystemPath) throws -> Int {
        Vips.start()
        let origin = ImageOrigin.file(file)
        _ = try origin.loader(name: file.display)
        let handle = try origin.openPDFPages(name: file.display)
        return Int(kv_n_pages(handle.pointer))
    }
}
