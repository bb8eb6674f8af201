public import Foundation
public import StageMixCapture
import StageMixJSON

/// The recorder's side of a capture in progress (docs/capture-format.md, "A capture in progress"),
/// checked version by version while `compose --follow` watches. What an earlier `session.json` said
/// stays as it was: every member keeps its value, except that participants, tracks, a track's layers
/// and events are only appended to, roles only gain members, `completeToMs` never goes back and
/// `recording` is left out only by the last version (the one ending with `session.ended`). The values
/// are compared as JSON, not as the decoded capture, so nothing the reader ignores escapes. A media
/// file named by a version, once it has had bytes, never shrinks or goes (``MediaSizes``).
///
/// It keeps the version before, parsed, and the media's sizes; nothing else. Problems name the file
/// and the JSON path of the first difference, with what the version before said and what this one says.
public struct RecorderContract: Sendable {
    /// `session.json`, as problems name it.
    public let manifest: URL
    public private(set) var media: MediaSizes
    /// The last version checked; `nil` before the first.
    private var previous: JSONValue?

    public init(manifest: URL) {
        self.manifest = manifest
        self.media = MediaSizes(folder: manifest.deletingLastPathComponent())
    }

    /// Reads `session.json` as it is now and checks it (``check(_:)``). A file that cannot be read,
    /// or is larger than any manifest may be, is left to the reader, which says why.
    public mutating func checkCurrentVersion() throws(CaptureError) {
        guard (MediaSizes.size(manifest.path) ?? .max) <= Int64(CaptureLimits.maxManifestBytes),
              let data = FileManager.default.contents(atPath: manifest.path) else { return }
        try check(data)
    }

    /// Checks a new version of `session.json` against the one before and keeps it for the next; the
    /// media files it names are looked at from the next ``mediaGrew()`` on. Bytes that are not JSON
    /// are left to the reader (which says where they break) and not kept.
    public mutating func check(_ data: Data) throws(CaptureError) {
        guard let version = try? JSONTextParser.parse(Array(data)) else { return }
        if let previous, let problem = Self.problem(from: previous, to: version) {
            throw CaptureError(problems: [JSONProblem(file: manifest.path, path: problem.path.description,
                                                      expected: problem.expected, found: problem.found)])
        }
        previous = version
        media.name(Self.mediaFiles(in: version))
    }

    /// Looks at the media named so far: whether any grew since the last look (the recorder is at work
    /// even when `session.json` does not change); a file that shrank or went is a broken contract.
    public mutating func mediaGrew() throws(CaptureError) -> Bool { try media.look() }

    // MARK: The rules

    /// What a later version may do with a value an earlier one had.
    indirect enum Keep: Sendable {
        /// Keep it: the same JSON value.
        case value
        /// An array the earlier one is an element-for-element prefix of, each earlier element kept as `element` says.
        case prefix(element: Keep)
        /// An object whose earlier members are kept as `members` says (the others as they were), which
        /// may gain members when `adding`.
        case members([String: Keep], adding: Bool)
        /// Checked on its own (`recording`).
        case elsewhere
    }

    /// The document: roles only gain members; participants, tracks and events are appended to, and so
    /// is a track's `layers`; any other member the document had keeps its value; new members may come.
    static let document = Keep.members([
        "roles": .members([:], adding: true),
        "participants": .prefix(element: .value),
        "tracks": .prefix(element: .members(["layers": .prefix(element: .value)], adding: false)),
        "events": .prefix(element: .value),
        "recording": .elsewhere,
    ], adding: true)

    struct Problem {
        var path: JSONPath
        var expected: String
        var found: String
    }

    /// The first thing `later` changed that the contract does not allow; `nil` when it only added.
    static func problem(from earlier: JSONValue, to later: JSONValue) -> Problem? {
        problem(from: earlier, to: later, keeping: document, at: .root) ?? recordingProblem(from: earlier, to: later)
    }

    static func problem(from earlier: JSONValue, to later: JSONValue, keeping keep: Keep, at path: JSONPath) -> Problem? {
        switch (keep, earlier, later) {
        case (.elsewhere, _, _):
            return nil
        case (.prefix(let element), .array(let before), .array(let after)):
            for (position, value) in before.enumerated() {
                guard position < after.count else {
                    return Problem(path: path.index(position), expected: "\(shown(value)), as the version before had it",
                                   found: "nothing: the array has \(after.count) elements now, \(before.count) before (only appending is allowed)")
                }
                if let found = problem(from: value, to: after[position], keeping: element, at: path.index(position)) { return found }
            }
            return nil
        case (.members(let rules, let adding), .object(let before), .object(let after)):
            for (key, value) in before.members {
                guard let other = after[key] else {
                    if case .elsewhere = rules[key] { continue }
                    return Problem(path: path.key(key), expected: "\(shown(value)), as the version before had it", found: "nothing: the member is gone")
                }
                if let found = problem(from: value, to: other, keeping: rules[key] ?? .value, at: path.key(key)) { return found }
            }
            if !adding, let added = after.members.first(where: { before[$0.key] == nil }) {
                return Problem(path: path.key(added.key), expected: "no \(added.key), as the version before had none", found: shown(added.value))
            }
            return nil
        default:
            // Kept as a value, or no longer the array or object it was: the first difference as JSON.
            guard let difference = JSONDifference.first(from: earlier, to: later, at: path) else { return nil }
            return Problem(path: difference.path,
                           expected: difference.earlier.map { "\(shown($0)), as the version before said" } ?? "nothing here, as the version before had nothing",
                           found: difference.later.map(shown) ?? "nothing: it is gone")
        }
    }

    /// `completeToMs` may only grow or stay; `recording` may go only with `session.ended` as the last
    /// event, and never comes back. A `completeToMs` that is not a number is left to the reader.
    static func recordingProblem(from earlier: JSONValue, to later: JSONValue) -> Problem? {
        let before = member("recording", of: earlier), after = member("recording", of: later)
        let path = JSONPath.root.key("recording")
        switch (before, after) {
        case (nil, nil):
            return nil
        case (nil, .some):
            return Problem(path: path, expected: "no recording: the version before was the last (it ended the session)",
                           found: "a capture in progress again")
        case (.some, nil):
            guard case .array(let events) = member("events", of: later) ?? .null,
                  member("type", of: events.last ?? .null).flatMap(JSONConvert.string) != "session.ended" else { return nil }
            return Problem(path: path, expected: "recording, as the version before had it (only the last version, ending with session.ended, leaves it out)",
                           found: "nothing, and the events do not end with session.ended")
        case (.some(let before), .some(let after)):
            guard case .number(let was)? = member("completeToMs", of: before), case .number(let now)? = member("completeToMs", of: after),
                  now.value < was.value else { return nil }
            return Problem(path: path.key("completeToMs"), expected: "at least \(was.text), as the version before said",
                           found: "\(now.text): it went back")
        }
    }

    /// Every media file a version names: each audio track's `file` and each layer's, in document order.
    static func mediaFiles(in version: JSONValue) -> [String] {
        guard case .array(let tracks)? = member("tracks", of: version) else { return [] }
        return tracks.flatMap { track -> [String] in
            var files = [member("file", of: track)]
            if case .array(let layers)? = member("layers", of: track) { files += layers.map { member("file", of: $0) } }
            return files.compactMap { $0.flatMap(JSONConvert.string) }
        }
    }

    static func member(_ key: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let object) = value else { return nil }
        return object[key]
    }

    /// A value as a problem shows it: its compact JSON, cut short when long (an event's payload may be large).
    static func shown(_ value: JSONValue) -> String {
        let text = value.jsonText
        return text.count <= 160 ? text : String(text.prefix(160)) + "…"
    }
}
