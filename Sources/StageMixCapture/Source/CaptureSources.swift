import StageMixStorage
import StageMixJSON

/// The source a capture location names, for every command and the service alike: a folder's path,
/// or an `s3://bucket/prefix` URL. A new kind of source (another platform's recording) is told apart
/// here, in one place, so nothing that takes a capture changes when one is added.
public enum CaptureSources {
    public static func source(at location: String) -> any CaptureSource {
        if let prefix = S3Location(location) { return CaptureBucket(prefix) }
        if location.contains("://") { return UnreadableLocation(location: location) }
        return CaptureFolder(path: location)
    }
}

/// A URL no source reads: refused with what would have worked.
struct UnreadableLocation: CaptureSource {
    let location: String

    func capture(inProgress: CaptureInProgress) throws(CaptureError) -> Capture {
        let expected = location.hasPrefix("s3://")
            ? "s3://bucket/prefix, with a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens"
            : "a capture folder's path or an s3://bucket/prefix URL"
        throw CaptureError(problems: [JSONProblem(file: location, path: "", expected: expected, found: "a location StageMix cannot read")])
    }
}
