import Foundation
import StageMixJSON
#if canImport(Glibc)
import Glibc
#endif

/// Janus's events log read while the event handler's receiver appends to it: each call reads the
/// lines added since the last (a line without its newline yet waits for it). Only the events the
/// room's history reads are kept (VideoRoom events, WebRTC `hangup`, media `receiving`), each once,
/// so a long room's per-second statistics cost nothing; the newest timestamp of any event says how
/// far the log has got.
final class JanusEventTail {
    let file: URL
    private var position: Int64 = 0
    private var partial: [UInt8] = []
    private var lineNumber = 0
    private var seen = Set<String>()
    /// The kept events, in the order read.
    private(set) var events: [JanusEvent] = []
    /// Lines that were not JSON, by number.
    private(set) var unreadableLines: [Int] = []
    /// The newest `timestamp` of any event read, real-time µs.
    private(set) var newestUs: Int64?
    /// Whether the last read found anything new.
    private(set) var grew = false

    init(_ file: URL) { self.file = file }

    /// The kept events as a log, in time order.
    var log: JanusEventLog { JanusEventLog(events: JanusEventLog.ordered(events), unreadableLines: unreadableLines) }

    /// Reads what was appended. A log that does not exist yet is empty.
    func read() throws {
        grew = false
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw ImportError(problems: [.init(file: file.path, path: "", expected: "Janus's events (JSON lines)", found: String(cString: strerror(errno)))])
        }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(position)) }
            guard count > 0 else { break }
            position += Int64(count)
            grew = true
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                take(partial + chunk[start..<index])
                partial = []
                start = index + 1
            }
            partial += chunk[start..<count]
        }
    }

    private func take(_ line: [UInt8]) {
        lineNumber += 1
        guard let values = JanusEventLog.values(inLine: line) else {
            unreadableLines.append(lineNumber)
            return
        }
        for event in values {
            newestUs = max(newestUs ?? event.timestampUs, event.timestampUs)
            guard Self.isRead(event), seen.insert(event.text).inserted else { continue }
            events.append(event)
        }
    }

    /// The kinds ``JanusRoomHistory`` reads.
    static func isRead(_ event: JanusEvent) -> Bool {
        if event.videoRoom != nil { return true }
        if event.type == 16, case .string("hangup")? = event.event["connection"] { return true }
        if event.type == 32, case .bool? = event.event["receiving"] { return true }
        return false
    }
}
