import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process as a pid plus its start time (clock ticks since boot, from `/proc/PID/stat`), so that a
/// pid reused by another process after a crash is not mistaken for the owner of a staging folder.
public struct ProcessIdentity: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int32
    public var startTicks: UInt64

    public init(pid: Int32, startTicks: UInt64) {
        self.pid = pid
        self.startTicks = startTicks
    }

    /// This process.
    public static let current: ProcessIdentity = ProcessIdentity(
        pid: getpid(), startTicks: startTicks(of: getpid()) ?? 0)

    /// True while the process that was started as this identity runs (or is a zombie not yet reaped).
    public var isAlive: Bool {
        guard pid > 0 else { return false }
        if Glibc.kill(pid, 0) != 0 && errno == ESRCH { return false }
        // Where /proc cannot be read, a pid that answers is taken as alive: never sweep a live process's work.
        guard let ticks = Self.startTicks(of: pid) else { return true }
        return ticks == startTicks
    }

    public var description: String { "\(pid)-\(startTicks)" }

    /// Field 22 of `/proc/PID/stat`; the command name (field 2) may hold spaces and parentheses, so count from its last `)`.
    static func startTicks(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so start time (field 22) is the 20th here.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }
}
