import Foundation

/// Where a capture comes from: anything that yields a validated ``Capture``. A capture folder is one
/// (``CaptureFolder``); importers of other platforms' recordings and captures in object storage are
/// others, each a file or folder under `Sources/StageMixCapture/Source/`. A source that builds a
/// capture from other data fills in a ``CaptureManifest`` and checks it with
/// ``Capture/init(manifest:directory:)``, so every capture meets the same rules however it was made.
public protocol CaptureSource: Sendable {
    /// How the source is named in messages and reports: a path, a URL.
    var location: String { get }
    /// Reads the source: the capture, or every problem with its file and JSON path. A capture still
    /// being recorded is refused or read as known so far, as `inProgress` says.
    func capture(inProgress: CaptureInProgress) throws(CaptureError) -> Capture
}

extension CaptureSource {
    /// The capture, which must be finished: one still being recorded is refused (`$.recording`).
    public func capture() throws(CaptureError) -> Capture { try capture(inProgress: .refuse) }
}
