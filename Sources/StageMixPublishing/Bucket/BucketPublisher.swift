public import Foundation
public import StageMixStorage

/// Publishes an output to a prefix of an S3-compatible bucket (`s3://bucket/prefix`), with the same
/// files as a local output and the same promises, as far as a store without renames allows:
///
/// - Nothing StageMix did not write is touched: a prefix holding objects without StageMix's marker
///   (or the note an interrupted StageMix upload leaves) is refused, and nothing under it changes.
/// - **The marker goes up last**: when `<prefix>/.stagemix-output` exists, the output is complete.
///   Segments go up while the encoder writes the next ones; playlists after their segments.
/// - **One run writes a prefix at a time.** Before its first object a run takes the prefix's note
///   (`.stagemix-partial`, a ``PartialNote``): written only where there is none (`If-None-Match: *`)
///   or over a dead run's, and renewed while the run writes (`If-Match`). A second run finds the
///   note live and stops with ``OutputRefusal/Reason/busy`` (exit 75) before it composes anything,
///   touching nothing; a run that dies leaves a note that the next run knows for a dead run's, and
///   what it left is replaced. The marker, too, is written only where there is none, so two runs can
///   never both publish, and a run whose note was taken from it writes and deletes nothing more.
/// - Into an empty prefix, objects go to their final keys. Over an earlier output (`--overwrite`),
///   the new objects go under `.stagemix-staging/` first and are copied into place only once all
///   are up, and the earlier output's objects that the new one does not have are deleted only after
///   the new marker is up.
/// - A run that fails or is stopped aborts its multipart uploads and deletes what it uploaded; a
///   rerun aborts those a killed run left.
///
/// Local staging is a folder under the system's temporary directory, removed after publication.
public final class BucketPublisher: OutputPublishing, @unchecked Sendable {
    /// The partial note's name, beside where the marker will be.
    public static let partialName = ".stagemix-partial"
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
        let lease: PrefixLease
        var watcher: SegmentWatcher?
        /// Each object uploaded, with its file's identity then.
        var uploaded: [String: UInt64] = [:]
        /// Another run's output was found published here: nothing of the prefix is this run's to delete.
        var yielded = false
        init(base: S3Location, replacing: Bool, uploader: ObjectUploader, lease: PrefixLease) {
            self.base = base
            self.replacing = replacing
            self.uploader = uploader
            self.lease = lease
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

    /// What dead runs left in the bucket is swept once this run holds the prefix (``begin(_:watching:)``):
    /// before that, the multipart uploads under it may be a live run's. What they left on this machine is
    /// swept now: local staging folders (a SIGKILLed worker's, a compose child that died with it) whose
    /// process is gone, whichever output they were for, as nothing else would ever remove them.
    public func sweepLeftovers() {
        let folder = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let leftover = StagingName(parsing: name), leftover.belongs(to: Self.localStagingTarget), !leftover.owner.isAlive else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The target named in local staging folders (`.upload.stagemix-<pid>-...`).
    static let localStagingTarget = "upload"

    public func isPublishedByJob() throws -> Bool {
        guard let job else { return false }
        let client = try self.client.get()
        guard let marker = try client.getVersioned(base.appending(OutputMarker.fileName)).wait(),
              OutputMarker.decoded(marker.data)?.job == job else { return false }
        // The run that published it was gone before it removed its note: removed as that run would have.
        if let note = try client.getVersioned(base.appending(Self.partialName)).wait(), PartialNote.decoded(note.data)?.isLive() != true {
            try client.delete(base.appending(Self.partialName)).wait()
        }
        return true
    }

    /// Multipart uploads a killed run left under this prefix: parts nobody will complete, billed until
    /// aborted. Only while this run holds the prefix's note, so they are nobody else's.
    private func abortDeadUploads(_ client: S3Client) {
        for upload in (try? client.listMultipartUploads(prefix).wait()) ?? [] where upload.key.hasPrefix(base.key) {
            try? client.abortMultipartUpload(S3Location(bucket: prefix.bucket, key: upload.key), uploadId: upload.uploadId).wait()
        }
    }

    public func stagingPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(StagingName(target: Self.localStagingTarget).name)
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

    /// Sets up the upload of `staging`: takes the prefix's note (refusing while another run holds
    /// it), looks again at what the prefix holds now that nobody else may change it, and decides
    /// where the objects go.
    @discardableResult
    private func begin(_ staging: URL, watching: Bool = true) throws -> Run {
        let client = try self.client.get()
        // Refused here, before anything is written, when the prefix is not ours to write.
        _ = try survey()
        let lease = try PrefixLease.acquire(client: client, note: base.appending(Self.partialName), shown: prefix.description)
        let survey: Survey
        do {
            // Another run may have published between the first look and the note.
            survey = try self.survey(holding: lease)
        } catch {
            lease.release(deleting: lease.createdFresh)
            throw error
        }
        abortDeadUploads(client)
        lease.startHeartbeat()
        let replacing = survey.marker != nil
        let base = replacing ? self.base.appending("\(Self.stagingName)/\(staging.lastPathComponent)/") : self.base
        let run = Run(base: base, replacing: replacing, uploader: ObjectUploader(client: client), lease: lease)
        if watching {
            run.watcher = SegmentWatcher(staging: staging) { relative, file in
                try run.lease.check()
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
        try run.lease.check()
        let survey: Survey
        do {
            survey = try self.survey(holding: run.lease)
        } catch let refusal as OutputRefusal where refusal.reason == .publishedMeanwhile {
            run.yielded = true
            throw refusal
        }
        if survey.marker != nil && !run.replacing {
            run.yielded = true
            throw OutputRefusal.publishedMeanwhile(at: prefix.description)
        }
        // A folder a worker's compose child published holds that child's marker: this run writes its own, last.
        let files = try Self.files(in: staging).filter { $0 != OutputMarker.fileName }
        // Media first, then playlists (media playlists before the master), then the reports.
        let order = files.filter { !$0.hasSuffix(".m3u8") && !$0.hasSuffix(".json") }
            + files.filter { $0.hasSuffix(".m3u8") }.sorted { $0.split(separator: "/").count > $1.split(separator: "/").count }
            + files.filter { $0.hasSuffix(".json") }
        for relative in order {
            let file = staging.appendingPathComponent(relative)
            if let identity = SegmentWatcher.identity(file), run.uploaded[relative] == identity { continue }
            try run.lease.check()
            try run.uploader.upload(file, to: run.base.appending(relative))
            run.uploaded[relative] = SegmentWatcher.identity(file) ?? 0
        }
        if run.replacing {
            // All of the new output is up: the earlier one stops being complete (this run's note is there, so
            // a failure from here on leaves a prefix a rerun knows as StageMix's), the new one is copied in.
            try run.lease.confirm()
            try client.delete(base.appending(OutputMarker.fileName)).wait()
            for relative in order { try client.copy(run.base.appending(relative), to: base.appending(relative)).wait() }
        }
        let entries = Set(order.map { String($0.split(separator: "/").first ?? "") })
        try run.lease.confirm()
        let marker = try OutputMarker(entries: Array(entries), job: job).encoded()
        do {
            // Only where no marker is: of two runs that both believed the prefix theirs, one publishes.
            _ = try client.put(base.appending(OutputMarker.fileName), body: marker, contentType: "application/json", condition: .absent).wait()
        } catch let error as S3Error where error.isPreconditionFailed {
            // A retry of this very PUT, whose answer was lost after the store took it, finds this run's own
            // marker: published. Ours only if it is what we sent and the prefix's note is still this run's.
            let there = try? client.get(base.appending(OutputMarker.fileName), maxBytes: 1 << 20).wait()
            guard there == marker, (try? run.lease.confirm()) != nil else {
                run.yielded = true
                throw OutputRefusal.publishedMeanwhile(at: prefix.description)
            }
        }
        // Complete: what the earlier output had and this one has not, the staged copies and the note go.
        lock.withLock { _ = runs.removeValue(forKey: staging) }
        let kept = Set(order).union([OutputMarker.fileName])
        for object in survey.objects where !kept.contains(object.relative) {
            try? client.delete(base.appending(object.relative)).wait()
        }
        if run.replacing {
            for relative in order { try? client.delete(run.base.appending(relative)).wait() }
        }
        run.lease.release(deleting: true)
        try? FileManager.default.removeItem(at: staging)
        StagingRegistry.shared.remove(staging)
    }

    public func discard(_ staging: URL) {
        let run = lock.withLock { runs.removeValue(forKey: staging) }
        if let run, let client = try? client.get() {
            let uploaded = Set((run.watcher?.stop() ?? [:]).keys).union(run.uploaded.keys)
            run.uploader.abortAll()
            // A run whose note another run took, or that found another's output published, deletes nothing:
            // the keys it wrote are that run's now.
            if !run.lease.isLost && !run.yielded {
                // What this run put up is removed; an earlier output under the prefix is as it was (or, once the
                // copies had begun, a partial output under the note, which the next run replaces).
                for relative in uploaded { try? client.delete(run.base.appending(relative)).wait() }
                if !run.replacing {
                    // There was no output here before this run: a marker whose PUT was answered with an error may
                    // still have landed, and must not vouch for what was just deleted.
                    try? client.delete(base.appending(OutputMarker.fileName)).wait()
                }
            }
            // The note goes only if nothing else is left: what an earlier killed run left stays StageMix's.
            let left = (try? client.list(prefix).wait())?.filter { $0.key.hasPrefix(base.key) && $0.key != base.appending(Self.partialName).key }
            run.lease.release(deleting: left?.isEmpty == true && !run.yielded)
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
    /// too unless it may be replaced, and, unless this run holds the prefix (`lease`), a prefix
    /// another live run is writing.
    private func survey(holding lease: PrefixLease? = nil) throws -> Survey {
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
        if lease == nil, names.contains(Self.partialName),
           let note = try client.getVersioned(base.appending(Self.partialName)).wait().flatMap({ PartialNote.decoded($0.data) }),
           note.isLive() {
            throw PrefixLease.busy(note, prefix.description)
        }
        if let marker, !overwrite && (job == nil || marker.job != job) {
            // Seen by a run that holds the prefix, it was published after that run first looked.
            if lease != nil { throw OutputRefusal.publishedMeanwhile(at: prefix.description) }
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
