import Foundation
import StageMixCapture
import StageMixMedia

/// One platform file of one kind, opened and read to its end: its first timestamp, its length and its
/// picture size; or why it cannot be used (not there, empty, nothing of the kind readable). A file
/// that cannot be used is lost media, not an error: the importer places it by what its documents say
/// and composing reports it.
struct MeasuredMedia: Sendable {
    /// The file's path under the folder, or the reference a document gave when no file matched.
    var reference: String
    var url: URL?
    var header: MediaHeader?
    /// Why it cannot be used; nil when it can.
    var lost: String?

    init(reference: String, url: URL?, kind: TrackKind) {
        self.reference = reference
        self.url = url
        guard let url, FileManager.default.fileExists(atPath: url.path) else {
            lost = "no such file"
            return
        }
        guard ((try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0) > 0 else {
            lost = "empty"
            return
        }
        guard let header = MediaHeader(url, kind: kind == .audio ? .audio : .video, readingToEnd: true), header.endMs != nil else {
            lost = "no \(kind.rawValue) that can be read"
            return
        }
        self.header = header
    }

    /// The file's own length in milliseconds, from its first timestamp to the end of its last sample.
    var durationMs: Int64? { header.flatMap { header in header.endMs.map { Int64($0 - header.firstMs) } } }
}
