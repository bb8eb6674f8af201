public import Foundation
public import StageMixCapture
import StageMixJSON
#if canImport(Glibc)
import Glibc
#endif

/// What an importer makes of another platform's recording: a capture manifest, the media files it
/// names (a path in the capture to the file where the platform left it), and warnings about what
/// could not be used (a recording that failed, a file that is missing). Written as an ordinary
/// capture folder, it is read, checked and composed like any other.
public struct ImportedCapture: Sendable {
    public var manifest: CaptureManifest
    /// Capture-relative path (`media/RT1234.mka`) to the platform's file; absent files stay named in
    /// the manifest, so composing reports them as lost media.
    public var media: [String: URL]
    public var warnings: [String]
    /// `twilio`, `livekit`.
    public var platform: String
    /// What the platform calls each track, by track id (Twilio: `track_name`, `source_sid`,
    /// `participant_sid`), written to `import.json` as `tracks` for layouts that name tracks so.
    public var trackNames: [String: [String: String]]
    /// How the files were placed on the session clock, written to `import.json` as `alignment`.
    public var alignment: [String]

    public init(manifest: CaptureManifest, media: [String: URL], warnings: [String], platform: String,
                trackNames: [String: [String: String]] = [:], alignment: [String] = []) {
        self.manifest = manifest
        self.media = media
        self.warnings = warnings
        self.platform = platform
        self.trackNames = trackNames
        self.alignment = alignment
    }

    /// The capture this import is, checked by every rule of the contract (media are not opened).
    public func capture(in directory: URL) throws(CaptureError) -> Capture {
        try Capture(manifest: manifest, directory: directory)
    }

    /// Writes the capture into `folder` (a staging folder): `session.json`, `import.json` (where it
    /// came from and the warnings), and each media file hard-linked where it lies (no second copy) or,
    /// with `copyMedia`, copied. A file on another file system cannot be linked: that is an error
    /// that says to copy.
    public func write(into folder: URL, copyMedia: Bool) throws {
        _ = try capture(in: folder)
        let fm = FileManager.default
        for (relative, source) in media.sorted(by: { $0.key < $1.key }) where fm.fileExists(atPath: source.path) {
            let target = folder.appendingPathComponent(relative)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if copyMedia {
                try fm.copyItem(at: source, to: target)
            } else if link(source.path, target.path) != 0 {
                let code = errno
                if code == EXDEV {
                    throw ImportError(problems: [JSONProblem(file: source.path, path: "", expected: "a media file on the capture's file system, to link in place",
                                                             found: "one on another file system; pass --copy-media to copy it")])
                }
                throw ImportError(problems: [JSONProblem(file: source.path, path: "", expected: "a media file that can be linked into the capture",
                                                         found: String(cString: strerror(code)))])
            }
        }
        try manifest.encoded().write(to: folder.appendingPathComponent(CaptureReader.manifestName))
        try ImportNote(platform: platform, warnings: warnings, tracks: trackNames.isEmpty ? nil : trackNames,
                       alignment: alignment.isEmpty ? nil : alignment).write(in: folder)
    }
}
