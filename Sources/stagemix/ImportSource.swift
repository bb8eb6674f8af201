import Foundation
import StageMixStorage

/// Where an import reads the platform's recording: a folder, or an `s3://` prefix brought onto this
/// machine first, into a hidden scratch folder beside `--out` (on its file system, so the media are
/// linked into the capture, not copied twice) or in the temporary folder for an output in a bucket.
/// The scratch folder is removed when the import ends, whatever happens.
struct ImportSource {
    let directory: String
    let out: String

    func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        guard let prefix = S3Location(directory) else { return try body(URL(fileURLWithPath: directory)) }
        let client = S3Client(configuration: try StorageConfiguration.fromEnvironment())
        let scratchParent = S3Location(out) == nil
            ? URL(fileURLWithPath: out).standardizedFileURL.deletingLastPathComponent()
            : FileManager.default.temporaryDirectory
        let scratch = scratchParent.appendingPathComponent(".stagemix-import-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let downloaded = try PrefixDownload(client: client, prefix: prefix).download(into: scratch)
        for skipped in downloaded.skipped { try? FileHandle.standardError.write(contentsOf: Data("warning: \(skipped)\n".utf8)) }
        try? FileHandle.standardError.write(contentsOf: Data("read \(downloaded.files) objects (\(downloaded.bytes / 1_000_000) MB) from \(prefix)\n".utf8))
        return try body(scratch)
    }
}
