import Foundation
@testable import StageMixQueue
#if canImport(Glibc)
import Glibc
#endif

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A new directory under /tmp, removed when the test process exits.
public func makeTemporaryDirectory(prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw TestFailure("mkdtemp failed")
    }
    let directory = String(cString: path)
    TemporaryDirectories.shared.add(directory)
    return directory
}

private final class TemporaryDirectories: @unchecked Sendable {
    public static let shared: TemporaryDirectories = {
        atexit { TemporaryDirectories.shared.removeAll() }
        return TemporaryDirectories()
    }()

    private let lock = NSLock()
    private var paths: [String] = []

    public func add(_ path: String) { lock.withLock { paths.append(path) } }

    public func removeAll() {
        for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// Runs a command to completion; throws with its output if it fails. Spawned and reaped
/// by the worker's own `ChildProcess`, off the cooperative pool.
@discardableResult
public func run(_ executable: String, _ arguments: [String]) async throws -> String {
    let lines = LineCollector()
    let child = try ChildProcess(arguments: [executable] + arguments) { lines.append($0) }
    let exit = await child.waitForExit()
    let output = lines.text
    guard exit == .exited(0) else {
        throw TestFailure("\(executable) \(arguments.joined(separator: " ")) \(exit): \(output) \(child.stderrTail)")
    }
    return output
}

public final class LineCollector: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var lines: [String] = []

    public func append(_ line: String) { lock.withLock { lines.append(line) } }
    public var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

public func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else { throw TestFailure("bind failed") }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { throw TestFailure("getsockname failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Polls `condition` until it holds or `seconds` pass.
public func eventually(_ seconds: Double = 20, _ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        // A database restarting under the test answers with errors for a while: keep looking.
        if (try? await condition()) == true { return }
        try await Task.sleep(for: .milliseconds(100))
    }
    throw TestFailure("timed out after \(seconds) s waiting for: \(what)")
}
