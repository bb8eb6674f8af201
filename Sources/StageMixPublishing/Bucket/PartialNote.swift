import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The note (`.stagemix-partial`) a run writing an output into a bucket prefix keeps there while it
/// writes: who the run is, and when it last said it was alive. It is the prefix's lease: written
/// only if absent (`If-None-Match: *`), renewed only if unchanged since this run wrote it
/// (`If-Match`), so at most one run writes a prefix at a time, and what a dead run left is known for
/// StageMix's and taken over.
///
/// A note is a dead run's when its process is gone (same machine: the host, its boot and the
/// process's start time say so at once), or when it has not been renewed for `leaseSeconds` by the
/// clock of the machine reading it. A note in the format of earlier versions
/// (`stagemix.partial/1`) names no owner and is taken for a dead run's.
struct PartialNote: Codable, Sendable, Equatable {
    static let currentFormat = "stagemix.partial/2"
    /// How long a note stays a live run's without being renewed.
    static let leaseSeconds: Double = 60

    var format: String
    /// This run's random token: a note whose token is ours is ours, however a retried write went.
    var run: String
    var host: String
    var boot: String
    var pid: Int32
    var startTicks: UInt64
    var startedAt: Date
    var heartbeatAt: Date
    var leaseSeconds: Double
    /// Set by a run that failed or was stopped and left objects behind: they are a dead run's at once,
    /// even to a later run of the same process (a worker's next attempt).
    var abandoned: Bool?

    /// A note for this process, now.
    static func forThisRun(token: String = UUID().uuidString, now: Date = Date()) -> PartialNote {
        let now = wholeSeconds(now)
        let me = ProcessIdentity.current
        return PartialNote(format: currentFormat, run: token, host: Self.hostName, boot: Self.bootId, pid: me.pid,
                           startTicks: me.startTicks, startedAt: now, heartbeatAt: now, leaseSeconds: leaseSeconds, abandoned: nil)
    }

    /// What a note in the prefix says: one of this format, or nil for anything else (an earlier
    /// version's note, or bytes that are no note at all).
    static func decoded(_ data: Data) -> PartialNote? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let note = try? decoder.decode(PartialNote.self, from: data), note.format == currentFormat else { return nil }
        return note
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    /// Is the run that wrote this note still writing? Decided as `at` and this machine see it.
    func isLive(at now: Date = Date()) -> Bool {
        if abandoned == true { return false }
        if host == Self.hostName && boot == Self.bootId {
            // This machine's process: gone means gone, whatever the clock says.
            guard ProcessIdentity(pid: pid, startTicks: startTicks).isAlive else { return false }
        }
        return now.timeIntervalSince(heartbeatAt) <= leaseSeconds
    }

    /// Who the note says is writing, for a message: host, pid, since when, when last heard from.
    func describeOwner(at now: Date = Date()) -> String {
        let since = ISO8601DateFormatter().string(from: startedAt)
        let heard = max(0, Int(now.timeIntervalSince(heartbeatAt).rounded()))
        return "pid \(pid) on \(host), writing since \(since), last heard from \(heard) s ago"
    }

    /// Times in a note are whole seconds, as ISO 8601 writes them, so a note read back equals the one written.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Changes at every boot: a pid of this host's earlier boot is no process now.
    static let bootId: String = {
        (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }()
}
