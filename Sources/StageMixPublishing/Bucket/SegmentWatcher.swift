import Foundation

/// Uploads an output's HLS segments while the encoder is still writing the rest, so the upload
/// overlaps encoding and the output is complete in the bucket moments after the last frame. A
/// thread looks at the staging folder twice a second; a segment is finished once a later segment
/// of the same folder exists (the muxer closes one before it opens the next), and is uploaded then.
/// The last segments, the playlists and the reports go up at publication.
final class SegmentWatcher: @unchecked Sendable {
    private let staging: URL
    private let upload: (String, URL) throws -> Void
    private let lock = NSLock()
    /// Each segment uploaded, with the file's identity then: a file of that name written again since (a
    /// followed run whose join started over) is another file, uploaded again.
    private var uploaded: [String: UInt64] = [:]
    private var stopping = false
    private var stopped = false
    private var started = false
    private var failure_: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private let interval: Double

    init(staging: URL, interval: Double = 0.5, upload: @escaping (String, URL) throws -> Void) {
        self.staging = staging
        self.interval = interval
        self.upload = upload
    }

    func start() {
        lock.withLock { started = true }
        let thread = Thread { [self] in
            while !lock.withLock({ stopping }) {
                do {
                    try uploadFinishedSegments()
                } catch {
                    lock.withLock { failure_ = error; stopping = true }
                }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
        thread.name = "stagemix-upload"
        thread.start()
    }

    /// Stops watching (waiting for an upload under way, once: later calls return at once) and says
    /// what went up. What failed, if an upload did, is ``failure``.
    @discardableResult
    func stop() -> [String: UInt64] {
        let wait = lock.withLock { () -> Bool in
            defer { stopping = true; stopped = true }
            return !stopped
        }
        if wait && started { done.wait() }
        return lock.withLock { uploaded }
    }

    /// The upload that failed, if one did; the watcher stopped then.
    var failure: (any Error)? { lock.withLock { failure_ } }

    private func uploadFinishedSegments() throws {
        for relative in Self.finishedSegments(in: staging) {
            let file = staging.appendingPathComponent(relative)
            guard let identity = Self.identity(file), lock.withLock({ uploaded[relative] }) != identity else { continue }
            if lock.withLock({ stopping }) { return }
            try upload(relative, file)
            lock.withLock { uploaded[relative] = identity }
        }
    }

    /// A file's identity: its inode, time and size mixed (nil when it is not there). A file written
    /// again is another, even where the file system gives it the inode just freed.
    static func identity(_ url: URL) -> UInt64? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        let nanoseconds = UInt64(bitPattern: Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
        return UInt64(info.st_ino) &* 0x9E37_79B9_7F4A_7C15 ^ nanoseconds &* 31 ^ UInt64(bitPattern: Int64(info.st_size))
    }

    /// `segment_00007.ts` (or `.m4s`): the number, else nil.
    static func segmentNumber(_ name: String) -> Int? {
        guard name.hasPrefix("segment_"), name.hasSuffix(".ts") || name.hasSuffix(".m4s") else { return nil }
        return Int(name.dropFirst("segment_".count).prefix { $0.isNumber })
    }

    /// Relative paths of the segments that have a later one beside them, in order.
    static func finishedSegments(in staging: URL) -> [String] {
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: staging.path) else { return [] }
        var byFolder: [String: [(Int, String)]] = [:]
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard let number = segmentNumber(name) else { continue }
            byFolder[(relative as NSString).deletingLastPathComponent, default: []].append((number, relative))
        }
        for (_, segments) in byFolder.sorted(by: { $0.key < $1.key }) {
            let sorted = segments.sorted { $0.0 < $1.0 }
            found += sorted.dropLast().map(\.1)
        }
        return found
    }
}
