import StageMixJSON
public import Foundation

/// Reads a capture directory's `session.json` into a `Capture`, checking every rule of
/// `stagemix.capture/1` and reporting all problems at once, each with its JSON path.
///
/// Media files are not opened; `missingMedia(in:)` lists the ones that are absent, which the
/// contract treats as a loss to report, not as a broken capture.
public enum CaptureReader {
    /// The only `format` this reader accepts.
    public static let formatIdentifier = "stagemix.capture/1"
    /// The manifest's name inside a capture directory.
    public static let manifestName = "session.json"

    /// Reads and validates `<directory>/session.json`.
    public static func read(directory: URL, inProgress: CaptureInProgress = .refuse) throws(CaptureError) -> Capture {
        let manifest = directory.appendingPathComponent(manifestName)
        // A mistyped folder is the usual cause: say that, not that session.json is missing inside it.
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) || !isFolder.boolValue {
            let found = FileManager.default.fileExists(atPath: directory.path) ? "a file, not a folder" : "no such folder"
            throw CaptureError(problems: [JSONProblem(file: directory.path, path: "", expected: "a capture folder holding \(manifestName)",
                                                      found: found)])
        }
        // Checked before reading, so an enormous file is refused without loading it.
        if let size = (try? FileManager.default.attributesOfItem(atPath: manifest.path))?[.size] as? Int,
           size > CaptureLimits.maxManifestBytes {
            throw CaptureError(problems: [tooLarge(manifestName, bytes: size)])
        }
        let data: Data
        do {
            data = try Data(contentsOf: manifest)
        } catch {
            throw CaptureError(problems: [JSONProblem(
                file: manifestName, path: "$", expected: "a readable \(manifestName) in \(directory.path)",
                found: FileManager.default.fileExists(atPath: manifest.path) ? "an unreadable file" : "no such file")])
        }
        return try parse(data, directory: directory, file: manifestName, inProgress: inProgress)
    }

    /// Validates manifest bytes; `directory` is the capture directory its media paths are relative to.
    public static func parse(_ data: Data, directory: URL, file: String = "session.json",
                             inProgress: CaptureInProgress = .refuse) throws(CaptureError) -> Capture {
        guard data.count <= CaptureLimits.maxManifestBytes else { throw CaptureError(problems: [tooLarge(file, bytes: data.count)]) }
        let root: JSONValue
        do {
            root = try JSONTextParser.parse(Array(data))
        } catch {
            throw CaptureError(problems: [JSONProblem(file: file, syntax: error)])
        }
        var decoder = ManifestDecoder(file: file, directory: directory.standardizedFileURL)
        guard var capture = decoder.decode(root), decoder.walker.problems.isEmpty else {
            throw CaptureError(problems: decoder.walker.problems)
        }
        if let completeToMs = capture.completeToMs {
            switch inProgress {
            case .refuse:
                throw CaptureError(problems: [JSONProblem(
                    file: file, path: "$.recording",
                    expected: "a finished capture (\"session.ended\" as its last event); compose one still being recorded with --follow",
                    found: "a capture in progress, complete to \(completeToMs) ms")])
            case .knownSoFar:
                capture.events = capture.events.filter { $0.atMs < completeToMs } + [SessionEvent(atMs: completeToMs, .sessionEnded)]
                capture.warnings.append(JSONProblem(file: file, path: "$.recording", expected: "a finished capture",
                                                    found: "one still being recorded: what is known up to completeToMs \(completeToMs) ms, ended there for now"))
            }
        }
        return capture
    }

    private static func tooLarge(_ file: String, bytes: Int) -> JSONProblem {
        JSONProblem(file: file, path: "$", expected: "a manifest of at most \(CaptureLimits.maxManifestBytes) bytes (docs/limits.md)",
                       found: "\(bytes) bytes")
    }
}
