/// The source a capture location names, for every command and the service alike: a folder's path
/// today. A new kind of source (an `s3://` prefix, another platform's recording) is told apart here,
/// in one place, so nothing that takes a capture changes when one is added.
public enum CaptureSources {
    public static func source(at location: String) -> any CaptureSource {
        CaptureFolder(path: location)
    }
}
