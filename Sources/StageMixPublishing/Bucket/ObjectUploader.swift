import Foundation
import StageMixStorage

/// Puts local files into a bucket: whole, with Content-MD5, up to ``multipartThreshold``; above it
/// by multipart upload in ``partSize`` parts, each checked by its MD5 and ETag, so memory holds one
/// part at a time whatever the file's size. Uploads under way are tracked, so that a run that fails
/// or is stopped aborts them (``abortAll()``) and leaves no parts billed in the bucket.
final class ObjectUploader: @unchecked Sendable {
    /// S3 needs parts of at least 5 MiB; objects from 8 MiB go in parts.
    static let multipartThreshold = 8 << 20
    static let partSize = 8 << 20

    let client: S3Client
    private let lock = NSLock()
    private var open: [String: (S3Location, String)] = [:]

    init(client: S3Client) { self.client = client }

    /// Uploads `file` to `location`.
    func upload(_ file: URL, to location: S3Location) throws {
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let type = ContentType.of(file.lastPathComponent)
        guard size >= Self.multipartThreshold else {
            try client.put(location, body: try Data(contentsOf: file), contentType: type).wait()
            return
        }
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let id = try client.createMultipartUpload(location, contentType: type).wait()
        lock.withLock { open[id] = (location, id) }
        do {
            var etags: [String] = []
            while let part = try handle.read(upToCount: Self.partSize), !part.isEmpty {
                etags.append(try client.uploadPart(location, uploadId: id, number: etags.count + 1, body: part).wait())
            }
            try client.completeMultipartUpload(location, uploadId: id, parts: etags).wait()
            lock.withLock { _ = open.removeValue(forKey: id) }
        } catch {
            try? client.abortMultipartUpload(location, uploadId: id).wait()
            lock.withLock { _ = open.removeValue(forKey: id) }
            throw error
        }
    }

    /// Aborts every multipart upload this uploader began and has not finished.
    func abortAll() {
        let pending = lock.withLock { () -> [(S3Location, String)] in
            defer { open = [:] }
            return Array(open.values)
        }
        for (location, id) in pending { try? client.abortMultipartUpload(location, uploadId: id).wait() }
    }
}
