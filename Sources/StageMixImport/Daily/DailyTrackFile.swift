import Foundation
import StageMixCapture
import StageMixMedia

/// One file of a Daily raw-tracks recording: found in the folder by its name, or named by a document
/// (a webhook's `s3Key`, an event's `uri`) and found by trailing path, or not found. Measured, it
/// knows its first and last timestamps and its gaps, or why it cannot be used.
struct DailyTrackFile: Sendable {
    var name: DailyFileName
    var fileName: String
    /// How it was found: its path under the folder, or the document's key.
    var reference: String
    var url: URL?
    /// What a document says its size is, and which document.
    var listedSize: (bytes: Int64, document: String)?
    var listedBy: String?
    var header: MediaHeader?
    var lost: String?

    /// A video gap longer than this in a camera's file is a mute: WebRTC cameras send 15 to 30 frames a
    /// second, so a second without one is the camera turned off (or the sender cut off), not a still scene.
    static let cameraGapMs = 1_000

    /// Reads the file's packets (not decoding them): where its samples start and end, and for a camera
    /// or microphone the gaps longer than ``cameraGapMs``. A screen share may send no frame while the
    /// screen does not change, so its gaps say nothing: only Daily's pause events pause it.
    mutating func measure(warnings: inout [String]) {
        guard lost == nil else { return }
        guard let url, FileManager.default.fileExists(atPath: url.path) else {
            lost = listedBy.map { "listed in \($0) but not in the folder" } ?? "no such file"
            return
        }
        let size = Int64((try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0)
        guard size > 0 else {
            lost = "empty"
            return
        }
        if let listed = listedSize, listed.bytes > size {
            warnings.append("\(reference): \(size) bytes, but \(listed.document) says \(listed.bytes) (a download cut short?); what there is is used")
        }
        guard let source = name.source else { return }
        let screen = source == .screenShare || source == .screenShareAudio
        guard let header = MediaHeader(url, kind: source.kind == .audio ? .audio : .video, readingToEnd: true,
                                       gapsOverMs: screen ? nil : Self.cameraGapMs), header.endMs != nil else {
            lost = "no \(source.kind.rawValue) that can be read"
            return
        }
        self.header = header
    }
}
