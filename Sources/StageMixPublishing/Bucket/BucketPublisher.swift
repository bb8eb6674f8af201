public import Foundation
public import StageMixStorage

/// Publishes an output to a prefix of an S3-compatible bucket (`s3://bucket/prefix`), with the same
/// files as a local output and the same promises, as far as a store without renames allows:
///
/// - Nothing StageMix did not write is touched: a prefix holding objects without StageMix's marker
///   (or the note an interrupted StageMix upload leaves) is refused, and nothing under it changes.
/// - **The marker goes up last**: when `<prefix>/.stagemix-output` exists, the output is complete.
///   Segments go up while the encoder writes the next ones; playlists after their segments.
/// - Into an empty prefix, objects go to their final keys, after a note (`.stagemix-partial`) that
///   says a StageMix output is being written there, so a run that dies leaves something a rerun may
///   replace. Over an earlier output (`--overwrite`), the new objects go under `.stagemix-staging/`
///   first and are copied into place only once all are up, and the earlier output's objects that
///   the new one does not have are deleted only after the new marker is up.
/// - A run that fails or is stopped aborts its multipart uploads and deletes what it uploaded; a
///   rerun aborts those a killed run left.
///
/// Local staging is a folder under the system's temporary directory, removed after publication.
public final class BucketPublisher: OutputPublishing, @unchecked Sendable {
    /// The partial note's name, beside where the marker will be.
    public static let partialName = ".stagemix-partial"
    private static let partialNote = Data(#"{"format": "stagemix.partial/1"}"#.utf8)
    /// Where an output replacing an earlier one is uploaded before it is copied into place.
    public static let stagingName = ".stagemix-staging"

    public let prefix: S3Location
    public let overwrite: Bool
    public let job: String?
    /// Captures the output must keep clear of (`s3://` URLs; local folders cannot overlap a bucket).
    public let inputs: [URL]
    private let client: Result<S3Client, StorageConfigurationError>
    private let lock = NSLock()
    private var runs: [URL: Run] = [:]

    /// One staging folder's upload: where its objects go, what went up, and the watcher sending segments.
    private final class Run: @unchecked Sendable {
        let base: S3Location
        let replacing: Bool
        let uploader: ObjectUploader
        var watcher: SegmentWatcher?
        var uploaded: Set<String> = []
        init(base: S3Location, replacing: Bool, uploader: ObjectUploader) {
            self.base = base
            self.replacing = replacing
            self.uploader = uploader
        }
    }

    public init(prefix: S3Location, overwrite: Bool = false, job: String? = nil, protecting inputs: [URL] = [],
                configuration: () throws(StorageConfigurationError) -> StorageConfiguration = StorageConfiguration.fromEnvironment) {
        self.prefix = S3Location(bucket: prefix.bucket, key: prefix.key.hasSuffix("/") ? String(prefix.key.dropLast()) : prefix.key)
        self.overwrite = overwrite
        self.job = job
        self.inputs = inputs
        do throws(StorageConfigurationError) {
            client = .success(S3Client(configuration: try configuration()))
        } catch {
            client = .failure(error)
        }
    }

    /// `prefix/`: what every key of the output starts with.
    private var base: S3Location { prefix.appending("") }

    // MARK: OutputPublishing

    public func check() throws {
        for input in inputs {
            guard let capture = S3Location(input.absoluteString), capture.bucket == prefix.bucket else { continue }
            let a = base.key, b = capture.appending("").key
            if a.hasPrefix(b) || b.hasPrefix(a) {
                throw OutputRefusal(.overlapsCapture, "--out \(prefix) overlaps the capture \(capture); choose a prefix outside it")
            }
        }
        _ = try survey()
    }

    public func sweepLeftovers() {
        guard let client = try? client.get() else { return }
        // Multipart uploads a killed run left under this prefix: parts nobody will complete, billed until aborted.
        for upload in (try? client.listMultipartUploads(prefix).wait()) ?? [] where upload.key.hasPrefix(base.key) {
            try? client.abortMultipartUpload(S3Location(bucket: prefix.bucket, key: upload.key), uploadId: upload.uploadId).wait()
        }
    }

    public func stagingPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(StagingName(target: "upload").name)
    }

    public func makeStaging() throws -> URL {
        let staging = stagingPath()
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        StagingRegistry.shared.add(staging)
        try watch(staging)
        return staging
    }

    private func watch(_ staging: URL) throws {
        try begin(staging).watcher?.start()
    }

    /// Sets up the upload of `staging`: where its objects go, and, into an empty prefix, the note
    /// that says a StageMix output is being written there.
    @discardableResult
    private func begin(_ staging: URL, watching: Bool = true) throws -> Run {
        let client = try self.client.get()
        let survey = try survey()
        let replacing = survey.marker != nil
        let base = replacing ? self.base.appending("\(Self.stagingName)/\(staging.lastPathComponent)/") : self.base
        if !replacing {
            // Said before the first object goes up: whatever this run leaves is StageMix's.
            try client.put(self.base.appending(Self.partialName), body: Self.partialNote, contentType: "application/json").wait()
        }
        let run = Run(base: base, replacing: replacing, uploader: ObjectUploader(client: client))
        if watching {
            run.watcher = SegmentWatcher(staging: staging) { relative, file in
                try run.uploader.upload(file, to: base.appending(relative))
            }
        }
        lock.withLock { runs[staging] = run }
        return run
    }

    public func publish(_ staging: URL) throws {
        do {
            try upload(staging)
        } catch {
            // Whoever called (compose's publishStaged, a worker), a failed publication leaves the prefix as a
            // rerun can replace it, and no parts behind.
            discard(staging)
            throw error
        }
    }

    private func upload(_ staging: URL) throws {
        let client = try self.client.get()
        // A folder another process wrote (a worker's compose child) is uploaded whole now.
        let run = try lock.withLock { runs[staging] } ?? begin(staging, watching: false)
        if let watcher = run.watcher {
            run.uploaded = watcher.stop()
            if let failure = watcher.failure { throw failure }
        }
        let survey = try survey()
        let files = try Self.files(in: staging)
        // Media first, then playlists (media playlists before the master), then the reports.
        let order = files.filter { !$0.hasSuffix(".m3u8") && !$0.hasSuffix(".json") }
            + files.filter { $0.hasSuffix(".m3u8") }.sorted { $0.split(separator: "/").count > $1.split(separator: "/").count }
            + files.filter { $0.hasSuffix(".json") }
        for relative in order where !run.uploaded.contains(relative) {
            try run.uploader.upload(staging.appendingPathComponent(relative), to: run.base.appending(relative))
            run.uploaded.insert(relative)
        }
        if run.replacing {
            // All of the new output is up: the earlier one stops being complete (the note first, so that
            // a failure from here on leaves a prefix a rerun knows as StageMix's), the new one is copied in.
            try client.put(base.appending(Self.partialName), body: Self.partialNote, contentType: "application/json").wait()
            try client.delete(base.appending(OutputMarker.fileName)).wait()
            for relative in order { try client.copy(run.base.appending(relative), to: base.appending(relative)).wait() }
        }
        let entries = Set(order.map { String($0.split(separator: "/").first ?? "") })
        try client.put(base.appending(OutputMarker.fileName), body: try OutputMarker(entries: Array(entries), job: job).encoded(),
                       contentType: "application/json").wait()
        // Complete: what the earlier output had and this one has not, the staged copies and the note go.
        lock.withLock { _ = runs.removeValue(forKey: staging) }
        let kept = Set(order).union([OutputMarker.fileName])
        for object in survey.objects where !kept.contains(object.relative) {
            try? client.delete(base.appending(object.relative)).wait()
        }
        if run.replacing {
            for relative in order { try? client.delete(run.base.appending(relative)).wait() }
        }
        try? client.delete(base.appending(Self.partialName)).wait()
        try? FileManager.default.removeItem(at: staging)
        StagingRegistry.shared.remove(staging)
    }

    public func discard(_ staging: URL) {
        let run = lock.withLock { runs.removeValue(forKey: staging) }
        if let run, let client = try? client.get() {
            let uploaded = (run.watcher?.stop() ?? []).union(run.uploaded)
            run.uploader.abortAll()
            // What this run put up is removed; an earlier output under the prefix is as it was (or, once the
            // copies had begun, a partial output under the note, which the next run replaces).
            for relative in uploaded { try? client.delete(run.base.appending(relative)).wait() }
            if !run.replacing {
                // There was no output here before this run: a marker whose PUT was answered with an error may
                // still have landed, and must not vouch for what was just deleted.
                try? client.delete(base.appending(OutputMarker.fileName)).wait()
                // The note goes only if nothing else is left: what an earlier killed run left stays StageMix's.
                let left = (try? client.list(prefix).wait())?.filter { $0.key.hasPrefix(base.key) && $0.key != base.appending(Self.partialName).key }
                if left?.isEmpty == true { try? client.delete(base.appending(Self.partialName)).wait() }
            }
        }
        try? FileManager.default.removeItem(at: staging)
        StagingRegistry.shared.remove(staging)
    }

    // MARK: What the prefix holds

    private struct Survey {
        struct Object { var relative: String }
        var objects: [Object]
        var marker: OutputMarker?
    }

    /// Lists the prefix and refuses it unless everything there is StageMix's: an earlier output's
    /// files, the note of an interrupted upload, staged copies. Refuses an earlier complete output
    /// too unless it may be replaced.
    private func survey() throws -> Survey {
        let client = try self.client.get()
        // Listed by the prefix without its final `/` and filtered here: the same objects, and a request
        // every S3 implementation signs alike.
        let listed = try client.list(prefix).wait()
        let objects = listed.filter { $0.key.hasPrefix(base.key) }.map { Survey.Object(relative: String($0.key.dropFirst(base.key.count))) }
        if objects.isEmpty { return Survey(objects: [], marker: nil) }
        let names = Set(objects.map(\.relative))
        var marker: OutputMarker?
        if names.contains(OutputMarker.fileName) {
            marker = OutputMarker.decoded(try client.get(base.appending(OutputMarker.fileName), maxBytes: 1 << 20).wait())
        }
        let allowed: Set<String> = (marker.map { Set($0.entries) } ?? (names.contains(Self.partialName) ? OutputFiles.topLevel : []))
            .union(marker == nil && !names.contains(Self.partialName) ? [] : [OutputMarker.fileName, Self.partialName, Self.stagingName])
        let foreign = names.filter { !allowed.contains(String($0.split(separator: "/").first ?? "")) }
        if !foreign.isEmpty {
            let sample = foreign.sorted().prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", and \(foreign.count - 3) more" : "")
            let what = marker == nil ? "holds objects StageMix did not write" : "is an earlier StageMix output, but also holds objects StageMix did not write"
            throw OutputRefusal(.foreignFolder, "--out \(prefix) \(what) (\(sample)); refusing to write there")
        }
        if let marker, !overwrite && (job == nil || marker.job != job) {
            throw OutputRefusal(.earlierOutput, "--out \(prefix) holds an earlier StageMix output; pass --overwrite to replace it")
        }
        return Survey(objects: objects, marker: marker)
    }

    /// Every file under `folder`, as relative paths, sorted.
    private static func files(in folder: URL) throws -> [String] {
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let base = folder.standardizedFileURL.path + "/"
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            found.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
        }
        return found.sorted()
    }
}
