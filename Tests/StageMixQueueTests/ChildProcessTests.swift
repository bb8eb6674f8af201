import Foundation
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Child process")
struct ChildProcessTests {
    func run(_ script: String) async throws -> (ChildProcess.Exit, [String], String) {
        let lines = LineCollector()
        let child = try ChildProcess(arguments: ["/bin/sh", "-c", script]) { lines.append($0) }
        let exit = await child.waitForExit()
        return (exit, lines.text.split(separator: "\n").map(String.init), child.stderrTail)
    }

    @Test func exitStatusOutputLinesAndStderr() async throws {
        let (exit, lines, stderr) = try await run("echo one; echo two; echo oops >&2; exit 65")
        #expect(exit == .exited(65))
        #expect(lines == ["one", "two"])
        #expect(stderr == "oops\n")
    }

    @Test func descriptorsOpenedWithoutCloseOnExecDoNotLeak() async throws {
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        let (_, lines, _) = try await run("if [ -e /proc/self/fd/\(fd) ]; then echo leaked; else echo clean; fi")
        #expect(lines == ["clean"])
    }

    @Test func killStopsTheWholeProcessGroup() async throws {
        let lines = LineCollector()
        // The shell's own child (sleep) holds stdout too; killing only the shell would leave it.
        let child = try ChildProcess(arguments: ["/bin/sh", "-c", "echo started; sleep 30; echo never"]) { lines.append($0) }
        try await eventually(30, "child started") { lines.text == "started" }
        let start = Date()
        child.kill()
        #expect(await child.waitForExit() == .signalled(SIGKILL))
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(lines.text == "started")
    }
}
