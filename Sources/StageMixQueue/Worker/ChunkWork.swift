public import Foundation
import StageMixOptions
import StageMixPublishing
public import StageMixStorage
#if canImport(Glibc)
import Glibc
#endif

/// Where a chunked composition's work is shared by the workers that plan it, encode its chunks and
/// join it, on whatever machines they run (docs/chunks.md, "On the queue"): beside its output. For an
/// output folder, a hidden folder beside it (`.<out>.stagemix-chunks-<id>/`), which every worker that
/// can write the output sees (a shared filesystem); the children work in it directly. For an output
/// in a bucket, a hidden prefix beside it (`s3://bucket/.../.<out>.stagemix-chunks-<id>/`): each
/// attempt's children work in a local folder of its own, which the worker fills from the prefix and
/// whose results it uploads.
///
/// A chunk (or the session's audio, `audio/`) is put in place whole: in a folder by renaming its
/// attempt's folder to `chunk-00003/`; in a bucket by uploading its files under its attempt's prefix,
/// then the object `chunk-00003.json` that names that prefix. Two attempts of one chunk never mix their files.
public struct ChunkWork: Sendable {
    /// The folder the children read and write.
    public let local: URL
    /// The shared prefix, for an output in a bucket.
    let bucket: S3Location?
    private let client: S3Client?

    /// The work of composition `compositionID`, published to `spec`'s destination.
    public init(spec: JobSpec, compositionID: String,
                configuration: () throws(StorageConfigurationError) -> StorageConfiguration = StorageConfiguration.fromEnvironment) throws {
        let name = { (last: String) in ".\(last).stagemix-chunks-\(compositionID)" }
        switch try spec.destination {
        case .folder(let folder):
            local = folder.deletingLastPathComponent().appendingPathComponent(name(folder.lastPathComponent))
            bucket = nil
            client = nil
        case .bucket(let prefix):
            let key = prefix.key.hasSuffix("/") ? String(prefix.key.dropLast()) : prefix.key
            let parent = key.split(separator: "/").dropLast().joined(separator: "/")
            let last = key.split(separator: "/").last.map(String.init) ?? "out"
            bucket = S3Location(bucket: prefix.bucket, key: (parent.isEmpty ? "" : parent + "/") + name(last) + "/")
            client = S3Client(configuration: try configuration())
            local = FileManager.default.temporaryDirectory
                .appendingPathComponent("\(Self.localPrefix)\(compositionID)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        }
    }

    /// The capture the work's `run.json` names (nil when it cannot be read: the chunk's own reading says why).
    var runCapture: String? {
        guard let data = try? Data(contentsOf: local.appendingPathComponent(Self.runFile)),
              let run = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return run["capture"] as? String
    }

    /// True when the work is there at all (a folder, or any object under the prefix).
    var exists: Bool {
        guard let bucket, let client else { return FileManager.default.fileExists(atPath: local.path) }
        return ((try? objects(under: bucket, in: bucket, client: client)) ?? []).isEmpty == false
    }

    /// True when the work is a shared folder the children work in directly.
    public var isLocal: Bool { bucket == nil }

    /// What the work is called in messages.
    public var description: String { bucket?.description ?? local.path }

    /// Makes the local folder; in a bucket, `run.json` is fetched into it (not for the plan, which writes it).
    func prepare(fetchingRun: Bool) throws {
        if bucket != nil { Self.sweepLocalLeftovers() }
        try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
        guard let bucket, let client, fetchingRun else { return }
        try download(bucket.appending(Self.runFile), to: local.appendingPathComponent(Self.runFile), client: client)
    }

    /// After the plan: `run.json` goes up for the other workers.
    func publishPlan() throws {
        guard let bucket, let client else { return }
        try client.put(bucket.appending(Self.runFile), body: Data(contentsOf: local.appendingPathComponent(Self.runFile)),
                       contentType: "application/json").wait()
    }

    /// A folder of the local folder for this attempt of `part` to write into.
    func attemptFolder(_ part: ChunkPart, attempt: Int) -> URL {
        local.appendingPathComponent(".\(part.folderName).\(attempt)-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Puts the part written into `folder` in place, unless another attempt already did.
    func publish(_ part: ChunkPart, from folder: URL) throws {
        let fm = FileManager.default
        let done = local.appendingPathComponent(part.folderName)
        guard let bucket, let client else {
            if fm.fileExists(atPath: done.path) { try? fm.removeItem(at: folder) } else { try fm.moveItem(at: folder, to: done) }
            return
        }
        defer { try? fm.removeItem(at: folder) }
        let marker = bucket.appending(part.folderName + ".json")
        if try client.head(marker).wait() != nil { return }
        let prefix = folder.lastPathComponent
        let files = (fm.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])?.allObjects as? [URL] ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        for file in files {
            let relative = String(file.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            try client.put(bucket.appending(prefix + "/" + relative), body: Data(contentsOf: file)).wait()
        }
        try client.put(marker, body: Data(#"{"folder":"\#(prefix)"}"#.utf8), contentType: "application/json").wait()
    }

    /// For the join in a bucket: brings the session's audio (when `run.json` makes it a job of its own),
    /// then each chunk, in order, into the local folder as it lands (its marker names its files),
    /// renamed into place whole, until every part of `run.json` is there or `shouldStop` says so.
    /// Nothing to do for a folder, where the parts land in place.
    func fetchChunks(shouldStop: @Sendable () -> Bool) throws {
        guard let bucket, let client else { return }
        let run = try JSONSerialization.jsonObject(with: Data(contentsOf: local.appendingPathComponent(Self.runFile))) as? [String: Any]
        let count = (run?["ranges"] as? [Any])?.count ?? 0
        let parts = (run?["audioApart"] as? Bool == true ? [ChunkPart.audio] : []) + (0..<count).map(ChunkPart.video)
        let fm = FileManager.default
        for part in parts {
            let name = part.folderName
            // Fetched before this attempt at fetching failed and was started again.
            if fm.fileExists(atPath: local.appendingPathComponent(name).path) { continue }
            var marker: Data?
            while marker == nil {
                if shouldStop() { return }
                if try client.head(bucket.appending(name + ".json")).wait() != nil {
                    marker = try client.get(bucket.appending(name + ".json")).wait()
                } else {
                    Thread.sleep(forTimeInterval: 0.2)
                }
            }
            guard let folder = (try? JSONSerialization.jsonObject(with: marker ?? Data()) as? [String: Any])?["folder"] as? String,
                  !folder.contains("/"), !folder.isEmpty else {
                throw QueueError(.corruptRow, "\(bucket.appending(name + ".json")) does not name the chunk's files")
            }
            let into = local.appendingPathComponent(".fetch-" + name)
            try? fm.removeItem(at: into)
            let source = bucket.appending(folder + "/")
            for object in try objects(under: source, in: bucket, client: client) {
                let relative = String(object.key.dropFirst(source.key.count))
                guard !relative.isEmpty, !relative.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else { continue }
                let file = into.appendingPathComponent(relative)
                try fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try download(S3Location(bucket: bucket.bucket, key: object.key), to: file, client: client, size: object.size)
            }
            try fm.moveItem(at: into, to: local.appendingPathComponent(name))
        }
    }

    /// Removes the work: the shared folder, or the prefix and this attempt's local folder.
    public func remove() throws {
        if let bucket, let client {
            defer { try? FileManager.default.removeItem(at: local) }
            for object in try objects(under: bucket, in: bucket, client: client) {
                try client.delete(S3Location(bucket: bucket.bucket, key: object.key)).wait()
            }
        } else {
            try FileManager.default.removeItem(at: local)
        }
    }

    /// Removes the local folders of works in a bucket whose worker is gone (SIGKILLed mid-attempt: nothing
    /// else would ever remove them); a folder whose pid answers is kept, even if the pid was reused.
    static func sweepLocalLeftovers() {
        let folder = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(localPrefix) {
            let parts = name.split(separator: "-")
            guard parts.count >= 4, let pid = pid_t(parts[parts.count - 2]), pid > 0, UInt32(parts[parts.count - 1]) != nil,
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// How the local folder of a work in a bucket is named: `stagemix-chunks-<composition>-<worker pid>-<random>`.
    static let localPrefix = "stagemix-chunks-"

    /// Removes this attempt's local folder (in a bucket; a shared folder stays for the other attempts).
    func removeLocal() {
        guard bucket != nil else { return }
        try? FileManager.default.removeItem(at: local)
    }

    static let runFile = "run.json"
    /// Objects larger than this are fetched in ranges of it.
    static let block = 32 << 20

    /// The objects under `prefix` (a prefix within the work's), listed as the work's whole prefix without its
    /// last `/`: some S3-compatible stores (moto among them) mis-sign a listing whose prefix has a `/` in it.
    private func objects(under prefix: S3Location, in work: S3Location, client: S3Client) throws -> [S3Object] {
        let listed = S3Location(bucket: work.bucket, key: work.key.hasSuffix("/") ? String(work.key.dropLast()) : work.key)
        return try client.list(listed).wait().filter { $0.key.hasPrefix(prefix.key) }
    }

    private func download(_ location: S3Location, to file: URL, client: S3Client, size: Int? = nil) throws {
        let total = try size ?? client.head(location).wait()?.size ?? 0
        guard total > Self.block else {
            try client.get(location, maxBytes: Self.block).wait().write(to: file)
            return
        }
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        for start in stride(from: 0, to: total, by: Self.block) {
            try handle.write(contentsOf: client.get(location, range: start...min(total, start + Self.block) - 1, maxBytes: Self.block).wait())
        }
    }
}
