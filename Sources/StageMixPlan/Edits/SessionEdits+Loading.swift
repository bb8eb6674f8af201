public import Foundation
public import StageMixJSON
public import StageMixCapture
import StageMixTime

/// An edit file that cannot be read or breaks a rule; each problem names the file and JSON path.
public struct EditsError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public var problems: [JSONProblem]

    init(_ description: String, problems: [JSONProblem] = []) {
        self.description = description
        self.problems = problems
    }

    init(problems: [JSONProblem]) {
        self.init(problems.map(\.description).joined(separator: "\n"), problems: problems)
    }
}

extension SessionEdits {
    /// At most this many exclusions, spans per exclusion, and mutes in one file.
    public static let maxEntries = 1_000

    /// Reads an edit file strictly (docs/edits.md): unknown members, a participant the capture does
    /// not have, a time outside 0...24 h or a span that does not move forward are each a problem at
    /// its JSON path. Times are seconds of session time.
    public static func load(contentsOf url: URL, capture: Capture) throws(EditsError) -> SessionEdits {
        let root: JSONValue
        do {
            root = try BillingTableFile.root(of: url)
        } catch {
            throw EditsError(error.description, problems: error.problems)
        }
        return try parse(root, file: BillingTableFile.name(of: url), participants: Set(capture.participants.map(\.id)),
                         names: Dictionary(capture.participants.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }),
                         sessionDurationMs: capture.durationMs)
    }

    /// `sessionDurationMs`, when given, is checked against trim and cut: the output must keep something.
    /// `names` (id to display name) lets a problem suggest the id a user meant by a name.
    static func parse(_ root: JSONValue, file: String, participants: Set<String>, names: [String: String] = [:],
                      sessionDurationMs: Int? = nil) throws(EditsError) -> SessionEdits {
        var walker = JSONWalker(file: file)
        let path = JSONPath.root
        guard let document = walker.object(root, at: path, expected: "an object {\"exclude\": [...], \"mute\": [...], \"trim\": {...}, \"cut\": [...]}") else {
            throw EditsError(problems: walker.problems)
        }
        walker.rejectUnknown(document, allowed: ["exclude", "mute", "trim", "cut"], at: path)
        let participantExpected = "the id of a participant of the capture"
        func participant(_ object: JSONObject, at itemPath: JSONPath, required: Bool) -> String? {
            guard let id = walker.field(object, "participant", at: itemPath, required: required,
                                        expected: participantExpected, JSONConvert.nonEmptyString) else { return nil }
            guard participants.contains(id) else {
                // Edits name participants by id; someone who wrote the name (or a near miss) is shown the id.
                let byName = names.filter { $0.value.caseInsensitiveCompare(id) == .orderedSame }.map(\.key).sorted().first
                let hint = (byName ?? NameSuggestion.closest(to: id, among: participants.sorted()))
                    .map { " (did you mean \"\($0)\", \(names[$0] ?? $0)'s id?)" } ?? ""
                walker.problem(itemPath.key("participant"), expected: participantExpected, found: "\"\(id)\"\(hint)")
                return nil
            }
            return id
        }
        func span(_ object: JSONObject, at itemPath: JSONPath) -> Span? {
            let expected = "seconds of session time from 0 to \(CaptureLimits.maxSessionMs / 1000)"
            let from = walker.field(object, "from", at: itemPath, expected: expected, Self.milliseconds)
            let to = walker.field(object, "to", at: itemPath, expected: expected, Self.milliseconds)
            guard let from, let to else { return nil }
            guard to > from else {
                walker.problem(itemPath.key("to"), expected: "a time after \"from\" (\(Double(from) / 1000) s)", found: "\(Double(to) / 1000) s")
                return nil
            }
            return Span(fromMs: from, toMs: to)
        }
        /// An element of `ranges` or `cut`: `{"from": SECONDS, "to": SECONDS}` and nothing else.
        func range(_ value: JSONValue, at rangePath: JSONPath) -> Span? {
            guard let r = walker.object(value, at: rangePath, expected: "an object {\"from\": SECONDS, \"to\": SECONDS}") else { return nil }
            walker.rejectUnknown(r, allowed: ["from", "to"], at: rangePath)
            return span(r, at: rangePath)
        }

        var edits = SessionEdits()
        if document["exclude"] != nil {
            for (i, element) in (walker.array(document, "exclude", at: path, of: "exclusions", limit: maxEntries) ?? []).enumerated() {
                let itemPath = path.key("exclude").index(i)
                guard let object = walker.object(element, at: itemPath, expected: "an object {\"participant\": ..., \"ranges\": [...]}") else { continue }
                walker.rejectUnknown(object, allowed: ["participant", "ranges"], at: itemPath)
                let id = participant(object, at: itemPath, required: true)
                var spans: [Span]?
                if object["ranges"] != nil {
                    let ranges = walker.array(object, "ranges", at: itemPath, of: "ranges", limit: maxEntries) ?? []
                    // An empty list would leave nobody out: for withdrawn consent, a mistake to report.
                    if ranges.isEmpty, object["ranges"].flatMap(JSONConvert.array) != nil {
                        walker.problem(itemPath.key("ranges"), expected: "at least one range (leave \"ranges\" out for the whole session)",
                                       found: "an empty array")
                    }
                    spans = ranges.enumerated().compactMap { k, value in range(value, at: itemPath.key("ranges").index(k)) }
                }
                if let id { edits.exclude.append(Exclusion(participantId: id, spans: spans)) }
            }
        }
        if document["mute"] != nil {
            for (i, element) in (walker.array(document, "mute", at: path, of: "mutes", limit: maxEntries) ?? []).enumerated() {
                let itemPath = path.key("mute").index(i)
                guard let object = walker.object(element, at: itemPath, expected: "an object {\"participant\": ..., \"from\": SECONDS, \"to\": SECONDS}") else { continue }
                walker.rejectUnknown(object, allowed: ["participant", "from", "to"], at: itemPath)
                let id = participant(object, at: itemPath, required: false)
                let hadParticipant = object["participant"] != nil
                if let s = span(object, at: itemPath), id != nil || !hadParticipant {
                    edits.mute.append(Mute(participantId: id, span: s))
                }
            }
        }
        if document["trim"] != nil {
            let trimPath = path.key("trim")
            if let object = walker.object(document["trim"]!, at: trimPath, expected: "an object {\"start\": SECONDS, \"end\": SECONDS}") {
                walker.rejectUnknown(object, allowed: ["start", "end"], at: trimPath)
                let expected = "seconds of session time from 0 to \(CaptureLimits.maxSessionMs / 1000)"
                let start = walker.field(object, "start", at: trimPath, required: false, expected: expected, Self.milliseconds)
                let end = walker.field(object, "end", at: trimPath, required: false, expected: expected, Self.milliseconds)
                if object["start"] == nil, object["end"] == nil {
                    walker.problem(trimPath, expected: "\"start\", \"end\" or both", found: "neither")
                } else if let start, let end, end <= start {
                    walker.problem(trimPath.key("end"), expected: "a time after \"start\" (\(Double(start) / 1000) s)", found: "\(Double(end) / 1000) s")
                } else if let start, let duration = sessionDurationMs, start >= duration {
                    walker.problem(trimPath.key("start"), expected: "a time before the session's end (\(Double(duration) / 1000) s)",
                                   found: "\(Double(start) / 1000) s")
                } else if start != nil || end != nil {
                    edits.trim = Trim(startMs: start, endMs: end)
                }
            }
        }
        if document["cut"] != nil {
            for (i, element) in (walker.array(document, "cut", at: path, of: "cuts", limit: maxEntries) ?? []).enumerated() {
                if let s = range(element, at: path.key("cut").index(i)) { edits.cut.append(s) }
            }
        }
        // Nothing left to compose is a mistake in the file, not an empty video.
        if walker.problems.isEmpty, let duration = sessionDurationMs, duration > 0, edits.removesTime,
           OutputClock(edits: edits, sessionDurationMs: duration).durationMs == 0 {
            let trimAlone = OutputClock(edits: SessionEdits(trim: edits.trim), sessionDurationMs: duration).durationMs == 0
            walker.problem(path.key(edits.cut.isEmpty || trimAlone ? "trim" : "cut"), expected: "edits that keep some of the session (\(Double(duration) / 1000) s)",
                           found: "the whole session removed")
        }
        guard walker.problems.isEmpty else { throw EditsError(problems: walker.problems) }
        return edits
    }

    /// Seconds (a number) as whole milliseconds within a session's longest length.
    static func milliseconds(_ value: JSONValue) -> Int? {
        guard case .number(let n) = value, n.value.isFinite, n.value >= 0, n.value * 1000 <= Double(CaptureLimits.maxSessionMs) else { return nil }
        return MediaTime.ms(seconds: n.value)
    }
}
