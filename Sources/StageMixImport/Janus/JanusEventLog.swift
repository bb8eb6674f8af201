import Foundation
import StageMixJSON

/// Janus's events as saved one JSON value per line: a single event, or an array of them when the
/// event handler groups (`grouping = true`). Lines that are neither, and values that are not events,
/// are skipped (Janus's log holds every kind of event, and a receiver may log more); an event posted
/// twice (the handler retransmits a POST it saw fail) counts once. In time order.
struct JanusEventLog: Sendable {
    var events: [JanusEvent]
    /// Lines that were not JSON at all, by line number, for a warning.
    var unreadableLines: [Int]

    init(events: [JanusEvent], unreadableLines: [Int] = []) {
        self.events = events
        self.unreadableLines = unreadableLines
    }

    /// Reads `url`; a missing file is an ``ImportError`` naming it.
    static func read(_ url: URL) throws -> JanusEventLog {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ImportError(problems: [JSONProblem(file: url.path, path: "", expected: "Janus's events (JSON lines, from the sample event handler)",
                                                     found: "no such file")])
        }
        return parse(data)
    }

    static func parse(_ data: Data) -> JanusEventLog {
        var seen = Set<String>()
        var events: [JanusEvent] = []
        var unreadable: [Int] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            guard let values = values(inLine: line) else {
                unreadable.append(index + 1)
                continue
            }
            for event in values where seen.insert(event.text).inserted { events.append(event) }
        }
        return JanusEventLog(events: ordered(events), unreadableLines: unreadable)
    }

    /// The events of one line (none for a blank line, or a value that holds no event); nil when the
    /// line is not JSON.
    static func values<Line: Collection<UInt8>>(inLine line: Line) -> [JanusEvent]? {
        let bytes = Array(line)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return [] }
        guard let value = try? JSONTextParser.parse(bytes) else { return nil }
        let values: [JSONValue] = if case .array(let items) = value { items } else { [value] }
        return values.compactMap(JanusEvent.init)
    }

    /// Stable: events of one instant keep the order Janus sent them in.
    static func ordered(_ events: [JanusEvent]) -> [JanusEvent] {
        events.enumerated().sorted { ($0.element.timestampUs, $0.offset) < ($1.element.timestampUs, $1.offset) }.map(\.element)
    }
}
