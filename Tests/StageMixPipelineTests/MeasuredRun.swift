import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process run to completion or to a deadline, with its own peak memory.
///
/// Spawned with `posix_spawn` in a process group of its own; past the deadline, or past
/// `killAboveBytes` of resident memory (so that a runaway cannot take the machine down), the whole
/// group is killed. The peak comes from two places, because neither is enough alone:
/// - the child's `VmHWM` in /proc, polled while it runs, misses only its last few milliseconds;
/// - `wait4`'s `ru_maxrss` covers its whole life, but Linux carries the high-water mark across
///   `exec` from the memory the child started in, which is the parent's: in a test process that
///   has grown large it says nothing. It counts only when it exceeds the parent's own high-water
///   mark, which it can then only do through the child.
struct MeasuredRun {
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case killedForMemory

        var description: String {
            switch self {
            case .exited(let code): "exit \(code)"
            case .signalled(let signal): "signal \(signal)"
            case .timedOut: "timed out"
            case .killedForMemory: "killed for memory"
            }
        }
    }

    var ending: Ending
    var stderr: String
    var seconds: Double
    /// Peak resident set of the child, from `wait4`.
    var maxResidentBytes: Int
    /// The most file descriptors the child held open at once, as polled in /proc (stdin, stdout and
    /// stderr included); a descriptor open for less than the polling interval can be missed.
    var maxOpenFiles: Int

    static func run(_ executable: URL, _ arguments: [String], timeout: Double, killAboveBytes: Int,
                    scratch: URL) throws -> MeasuredRun {
        let stdoutPath = scratch.appendingPathComponent("stdout").path
        let stderrPath = scratch.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "posix_spawn: \(String(cString: strerror(spawned)))"])
        }

        let start = Date()
        var status: Int32 = 0
        var usage = rusage()
        var forced: Ending?
        var polledPeak = 0
        var openFiles = 0
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            let memory = memoryStatus(of: "\(pid)")
            polledPeak = max(polledPeak, memory.peak)
            openFiles = max(openFiles, (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0)
            if forced == nil {
                if Date().timeIntervalSince(start) > timeout {
                    forced = .timedOut
                } else if memory.resident > killAboveBytes {
                    forced = .killedForMemory
                }
                if forced != nil { kill(-pid, SIGKILL) }
            }
            usleep(10_000)
        }
        let reaped = usage.ru_maxrss * 1024
        let peak = reaped > memoryStatus(of: "self").peak ? max(polledPeak, reaped) : polledPeak
        let seconds = Date().timeIntervalSince(start)
        let ending: Ending
        if let forced {
            ending = forced
        } else if status & 0x7f == 0 {
            ending = .exited((status >> 8) & 0xff)
        } else {
            ending = .signalled(status & 0x7f)
        }
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return MeasuredRun(ending: ending, stderr: stderr, seconds: seconds, maxResidentBytes: peak, maxOpenFiles: openFiles)
    }

    /// A process's resident set now and its high-water mark (`VmRSS`, `VmHWM` in /proc), 0 when unknown.
    private static func memoryStatus(of process: String) -> (resident: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return (0, 0) }
        func kilobytes(_ field: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
                  let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first else { return 0 }
            return (Int(value) ?? 0) * 1024
        }
        return (kilobytes("VmRSS:"), kilobytes("VmHWM:"))
    }
}
