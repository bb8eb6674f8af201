public import Foundation
public import StageMixStorage
import StageMixJSON

/// A capture in object storage: `s3://bucket/prefix` holding `session.json` and the media it names,
/// laid out as in a capture folder. Reading it fetches `session.json` and `import.json` only (no listing of the prefix);
/// a media object is asked about (HEAD) when it is opened and read by ranged GETs only as far as a
/// demuxer asks (``MediaLocation/object(relativePath:in:)``), so a layer nobody shows is never
/// requested at all. A media object that is missing is found when it is opened, and reported as lost
/// media as a missing file is.
public struct CaptureBucket: CaptureSource {
    public let prefix: S3Location
    /// How to reach the store; resolved from the environment when the capture is read.
    private let configuration: @Sendable () throws -> StorageConfiguration

    public init(_ prefix: S3Location, configuration: @escaping @Sendable () throws -> StorageConfiguration = { try StorageConfiguration.fromEnvironment() }) {
        self.prefix = prefix
        self.configuration = configuration
    }

    public var location: String { prefix.description }

    public func capture(inProgress: CaptureInProgress) throws(CaptureError) -> Capture {
        let manifest = prefix.appending(CaptureReader.manifestName)
        let client: S3Client
        let data: Data
        do {
            client = S3Client(configuration: try configuration())
            data = try client.get(manifest, maxBytes: CaptureLimits.maxManifestBytes + 1).wait()
        } catch let error as StorageConfigurationError {
            // A misspelt AWS_PROFILE or a missing file is this machine's set-up, not the capture.
            throw CaptureError(problems: [], configuration: error)
        } catch {
            throw CaptureError(problems: [Self.problem(error, manifest: manifest)], storage: error as? S3Error)
        }
        guard let directory = URL(string: prefix.appending("").description) else {
            throw CaptureError(problems: [JSONProblem(file: prefix.description, path: "", expected: "an s3:// URL", found: "one that is not a URL")])
        }
        var capture = try CaptureReader.parse(data, directory: directory, file: manifest.description, inProgress: inProgress)
        capture.objects = StoredObjects(client: client, prefix: prefix)
        capture.importNote = try Self.importNote(prefix.appending(ImportNote.fileName), client: client)
        return capture
    }

    /// `import.json` when the capture has one: its absence is no problem, a store that fails to say is.
    private static func importNote(_ note: S3Location, client: S3Client) throws(CaptureError) -> ImportNote? {
        do {
            return ImportNote.decode(try client.get(note, maxBytes: ImportNote.maxBytes + 1).wait())
        } catch let error as S3Error where error.status == 404 {
            return nil
        } catch {
            throw CaptureError(problems: [JSONProblem(file: note.description, path: "", expected: "a readable object or none",
                                                      found: "\(error)")], storage: error as? S3Error)
        }
    }


    private static func problem(_ error: any Error, manifest: S3Location) -> JSONProblem {
        if let error = error as? S3Error, error.status == 404, error.code == "NoSuchKey" || error.code == "NotFound" {
            return JSONProblem(file: manifest.description, path: "", expected: "a capture prefix holding \(CaptureReader.manifestName)",
                               found: "no such object")
        }
        if let error = error as? S3Error, error.code == "TooLarge" {
            return JSONProblem(file: manifest.description, path: "$", expected: "a manifest of at most \(CaptureLimits.maxManifestBytes) bytes (docs/limits.md)",
                               found: "a larger object")
        }
        return JSONProblem(file: manifest.description, path: "", expected: "a readable capture in object storage", found: "\(error)")
    }
}
