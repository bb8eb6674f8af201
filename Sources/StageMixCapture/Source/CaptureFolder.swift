public import Foundation

/// A capture folder on this machine: `session.json` and the media files it names, as the contract
/// (docs/capture-format.md) lays them out.
public struct CaptureFolder: CaptureSource {
    public let directory: URL

    public init(_ directory: URL) { self.directory = directory.standardizedFileURL }

    /// A path as the user gave it, relative to the working directory.
    public init(path: String) { self.init(URL(fileURLWithPath: path)) }

    public var location: String { directory.path }

    public func capture(inProgress: CaptureInProgress) throws(CaptureError) -> Capture {
        var capture = try CaptureReader.read(directory: directory, inProgress: inProgress)
        capture.importNote = ImportNote.read(in: directory)
        return capture
    }
}
