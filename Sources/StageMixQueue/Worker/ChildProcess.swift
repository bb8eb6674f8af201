public import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// A compose child process, spawned in a process group of its own so that killing it kills
/// whatever it started too. Waiting and reading happen on threads of their own (blocking
/// `waitpid`/`poll`), never on Swift Concurrency's cooperative pool. Public for the tests' own
/// helpers, which spawn `stagemix` and PostgreSQL the same way.
public final class ChildProcess: Sendable {
    public enum Exit: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    private struct State {
        var exit: Exit?
        var outputClosed = false
        var stderrTail: [UInt8] = []
        var waiters: [CheckedContinuation<Exit, Never>] = []
    }

    public let pid: pid_t
    private let state = NIOLockedValueBox(State())
    private static let stderrKeep = 4096

    /// Starts `arguments[0]` (looked up in PATH) with the rest as argv; each stdout line goes to `onLine`.
    public init(arguments: [String], onLine: @escaping @Sendable (String) -> Void) throws {
        precondition(!arguments.isEmpty)
        var stdoutPipe: [Int32] = [0, 0]
        var stderrPipe: [Int32] = [0, 0]
        guard pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else { throw Self.posixError("pipe") }
        // Close-on-exec, so a sibling child spawned at the same moment does not keep our pipes open.
        for fd in stdoutPipe + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        Self.closeOtherDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group; default signal handling and an empty mask, whatever the worker's
        // signal handling set up (ignored signals would otherwise be inherited).
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard rc == 0 else {
            close(stdoutPipe[0])
            close(stderrPipe[0])
            throw Self.posixError("posix_spawn \(arguments[0])", code: rc)
        }
        self.pid = pid

        let (childID, stdoutRead, stderrRead) = (pid, stdoutPipe[0], stderrPipe[0])
        let reader = Thread { [state] in Self.readOutput(stdout: stdoutRead, stderr: stderrRead, state: state, onLine: onLine) }
        reader.name = "stagemix-child-output-\(pid)"
        reader.start()
        let waiter = Thread { [state] in Self.waitForExit(pid: childID, state: state) }
        waiter.name = "stagemix-child-wait-\(pid)"
        waiter.start()
    }

    public var exit: Exit? { state.withLockedValue { $0.exit } }

    /// The last few KiB the child wrote to stderr.
    public var stderrTail: String { String(decoding: state.withLockedValue { $0.stderrTail }, as: UTF8.self) }

    /// Waits for the child to exit without holding a thread of the cooperative pool.
    public func waitForExit() async -> Exit {
        await withCheckedContinuation { continuation in
            let exit = state.withLockedValue { state -> Exit? in
                if let exit = state.exit { return exit }
                state.waiters.append(continuation)
                return nil
            }
            if let exit { continuation.resume(returning: exit) }
        }
    }

    /// Sends `signal` to the child alone, if it is still running.
    public func send(_ signal: Int32) {
        guard exit == nil else { return }
        _ = Glibc.kill(pid, signal)
    }

    /// SIGKILL to the child's whole process group.
    public func kill() {
        guard exit == nil else { return }
        _ = Glibc.kill(-pid, SIGKILL)
    }

    /// Stops the child as a person would: SIGTERM to its process group (compose stops within a second
    /// and removes its staging folder), then SIGKILL if it is still running after `grace`.
    public func stop(grace: Duration) async -> Exit {
        if exit == nil { _ = Glibc.kill(-pid, SIGTERM) }
        let deadline = ContinuousClock.now + grace
        while exit == nil && ContinuousClock.now < deadline {
            // A cancelled task cannot wait: the group is killed at once.
            do { try await Task.sleep(for: .milliseconds(20)) } catch { break }
        }
        kill()
        return await waitForExit()
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not export.
    private static let addCloseFrom: CloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }

    /// The child gets stdin, stdout and stderr only: no descriptor another thread opened without
    /// close-on-exec (a file being written, say, which would then be "busy" for exec) leaks into it.
    private static func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        _ = addCloseFrom?(&actions, 3)
    }

    private static func waitForExit(pid: pid_t, state: NIOLockedValueBox<State>) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7f
        let exit: Exit = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        // The child's own children may hold the pipes open; give the reader a moment to drain.
        let deadline = Date().addingTimeInterval(2)
        while !state.withLockedValue({ $0.outputClosed }) && Date() < deadline { usleep(10_000) }
        let waiters = state.withLockedValue { state in
            state.exit = exit
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: exit) }
    }

    private static func readOutput(stdout: Int32, stderr: Int32, state: NIOLockedValueBox<State>, onLine: @Sendable (String) -> Void) {
        defer {
            close(stdout)
            close(stderr)
            state.withLockedValue { $0.outputClosed = true }
        }
        var open: Set<Int32> = [stdout, stderr]
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !open.isEmpty {
            var fds = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 200)
            if ready < 0 && errno != EINTR { return }
            if ready <= 0 {
                // The child is gone but a grandchild holds the pipe: stop after the waiter's grace.
                if state.withLockedValue({ $0.exit != nil }) { return }
                continue
            }
            for fd in fds where fd.revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fd.fd, $0.baseAddress, $0.count) }
                if n <= 0 {
                    if n == 0 || errno != EINTR { open.remove(fd.fd) }
                    continue
                }
                let chunk = buffer[0..<n]
                if fd.fd == stdout {
                    pending.append(contentsOf: chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        onLine(String(decoding: pending[..<newline], as: UTF8.self))
                        pending.removeSubrange(...newline)
                    }
                } else {
                    state.withLockedValue { state in
                        state.stderrTail.append(contentsOf: chunk)
                        if state.stderrTail.count > stderrKeep { state.stderrTail.removeFirst(state.stderrTail.count - stderrKeep) }
                    }
                }
            }
        }
    }

    private static func posixError(_ what: String, code: Int32 = errno) -> any Error {
        NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(code)))"])
    }
}
