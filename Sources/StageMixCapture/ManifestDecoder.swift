import StageMixJSON
import Foundation

/// Turns a parsed `session.json` into a `Capture`: structure and types first, then the event
/// sequence's meaning (`EventSequenceValidator`). Problems accumulate in `walker`.
struct ManifestDecoder {
    var walker: JSONWalker
    let directory: URL
    private let mediaPaths: MediaPathCheck

    init(file: String, directory: URL) {
        self.walker = JSONWalker(file: file)
        self.directory = directory
        self.mediaPaths = MediaPathCheck(directory: directory)
    }

    /// The capture, or `nil` when the document is too broken to build one. Even when a capture is
    /// returned, `walker.problems` may be non-empty and the caller must reject it.
    mutating func decode(_ root: JSONValue) -> Capture? {
        let path = JSONPath.root
        guard let document = walker.object(root, at: path, expected: "a JSON object (the session manifest)") else { return nil }

        let format = walker.field(document, "format", at: path, expected: "\"\(CaptureReader.formatIdentifier)\"", JSONConvert.string)
        if let format, format != CaptureReader.formatIdentifier {
            walker.problem(path.key("format"), expected: "\"\(CaptureReader.formatIdentifier)\"", found: JSONValue.string(format).summary)
        }
        let sessionId = walker.field(document, "sessionId", at: path, expected: "a non-empty string", JSONConvert.nonEmptyString)
        let years = CaptureLimits.startedAtYears
        let startedAt = walker.field(document, "startedAt", at: path,
                                     expected: "an RFC 3339 UTC timestamp in the years \(years.lowerBound) to \(years.upperBound), "
                                        + "such as \"2026-11-20T18:00:00.000Z\" (docs/limits.md)") {
            JSONConvert.string($0).flatMap(RFC3339Timestamp.parseUTC).flatMap { years.contains($0.year) ? $0.date : nil }
        }
        let roles = document["roles"].flatMap { decodeRoles($0, at: path.key("roles")) }
        let (participants, participantIds) = decodeParticipants(document, at: path)
        let (tracks, trackOwners) = decodeTracks(document, at: path, participantIds: participantIds)
        let events = decodeEvents(document, at: path)
        let completeToMs = decodeRecording(document, at: path)

        if let events {
            var validator = EventSequenceValidator(roles: roles, participantIds: participantIds, trackOwners: trackOwners)
            validator.inProgress = document["recording"] != nil
            validator.validate(events, eventsPath: path.key("events"), into: &walker)
        }

        guard let sessionId, let startedAt else { return nil }
        var capture = Capture(directory: directory, sessionId: sessionId, startedAt: startedAt, roles: roles,
                              participants: participants, tracks: tracks,
                              events: events?.compactMap(\.event) ?? [], warnings: walker.warnings)
        capture.completeToMs = completeToMs
        return capture
    }

    /// `recording` of a capture in progress: `{"completeToMs": N}`, N whole milliseconds on the session clock.
    private mutating func decodeRecording(_ document: JSONObject, at path: JSONPath) -> Int? {
        guard let value = document["recording"] else { return nil }
        guard let recording = walker.object(value, at: path.key("recording")) else { return nil }
        return walker.field(recording, "completeToMs", at: path.key("recording"),
                            expected: "whole milliseconds on the session clock, 0 to \(CaptureLimits.atMs.upperBound)",
                            JSONConvert.integer(in: CaptureLimits.atMs))
    }

    // MARK: Roles and participants

    private mutating func decodeRoles(_ value: JSONValue, at path: JSONPath) -> [String: Role]? {
        guard let object = walker.object(value, at: path, expected: "an object mapping role names to { \"canPublish\": [...] }") else { return nil }
        guard object.members.count <= CaptureLimits.maxRoles else {
            walker.problem(path, expected: "at most \(CaptureLimits.maxRoles) roles (docs/limits.md)", found: "\(object.members.count)")
            return nil
        }
        var roles: [String: Role] = [:]
        for (name, value) in object.members {
            let rolePath = path.key(name)
            if name.isEmpty { walker.problem(rolePath, expected: "a non-empty role name", found: "an empty name") }
            // A broken role still names a role, so events naming it are not reported a second time.
            roles[name] = Role(canPublish: [])
            guard let role = walker.object(value, at: rolePath),
                  let rights = walker.field(role, "canPublish", at: rolePath, expected: "an array", JSONConvert.array)
            else { continue }
            var canPublish = Set<PublishRight>()
            for (i, right) in rights.enumerated() {
                guard let parsed = walker.value(right, at: rolePath.key("canPublish").index(i),
                                                expected: "\"audio\", \"video\" or \"screen\"",
                                                JSONConvert.enumeration(PublishRight.self)) else { continue }
                if !canPublish.insert(parsed).inserted {
                    walker.problem(rolePath.key("canPublish").index(i), expected: "each right once", found: "\"\(parsed.rawValue)\" again")
                }
            }
            roles[name] = Role(canPublish: canPublish)
        }
        return roles
    }

    /// The well-formed participants, and the ids of all, so one broken name does not turn every
    /// event about that participant into a second problem. The ids are `nil` (unknown, not checked)
    /// when `participants` itself is broken.
    private mutating func decodeParticipants(_ document: JSONObject, at root: JSONPath) -> ([Participant], Set<String>?) {
        let path = root.key("participants")
        guard let elements = walker.array(document, "participants", at: root, of: "participants",
                                          limit: CaptureLimits.maxParticipants) else { return ([], nil) }
        var participants: [Participant] = []
        var firstIndex: [String: Int] = [:]
        for (i, element) in elements.enumerated() {
            let itemPath = path.index(i)
            guard let object = walker.object(element, at: itemPath) else { continue }
            let id = walker.field(object, "id", at: itemPath, expected: "a non-empty string", JSONConvert.nonEmptyString)
            let name = walker.field(object, "name", at: itemPath, expected: "a string", JSONConvert.string)
            guard let id else { continue }
            if let first = firstIndex[id] {
                walker.problem(itemPath.key("id"), expected: "a participant id not used before", found: "\"\(id)\", already the id of participants[\(first)]")
                continue
            }
            firstIndex[id] = i
            if let name { participants.append(Participant(id: id, name: name)) }
        }
        return (participants, Set(firstIndex.keys))
    }

    // MARK: Tracks

    /// The well-formed tracks, and every track id with its participant when that is a known one
    /// (the event checks need no more, and should not fail again for a track already reported).
    /// The owners are `nil` (unknown, not checked) when `tracks` itself is broken.
    private mutating func decodeTracks(_ document: JSONObject, at root: JSONPath,
                                       participantIds: Set<String>?) -> ([Track], [String: String?]?) {
        let path = root.key("tracks")
        guard let elements = walker.array(document, "tracks", at: root, of: "tracks", limit: CaptureLimits.maxTracks) else { return ([], nil) }
        var tracks: [Track] = []
        var owners: [String: String?] = [:]
        var firstIndex: [String: Int] = [:]
        for (i, element) in elements.enumerated() {
            let itemPath = path.index(i)
            guard let object = walker.object(element, at: itemPath) else { continue }
            let id = walker.field(object, "id", at: itemPath, expected: "a non-empty string", JSONConvert.nonEmptyString)
            if let id {
                if let first = firstIndex[id] {
                    walker.problem(itemPath.key("id"), expected: "a track id not used before", found: "\"\(id)\", already the id of tracks[\(first)]")
                } else {
                    firstIndex[id] = i
                }
            }
            let participantId = walker.field(object, "participantId", at: itemPath, expected: "a participant id", JSONConvert.nonEmptyString)
            if let participantId, let participantIds, !participantIds.contains(participantId) {
                walker.problem(itemPath.key("participantId"), expected: "the id of a participant in $.participants", found: "\"\(participantId)\", which is not one")
            }
            if let id, owners[id] == nil {
                owners[id] = .some(participantId.flatMap { participantIds?.contains($0) ?? false ? $0 : nil })
            }
            let kind = walker.field(object, "kind", at: itemPath, expected: "\"video\" or \"audio\"", JSONConvert.enumeration(TrackKind.self))
            let source = walker.field(object, "source", at: itemPath,
                                      expected: "\"camera\", \"microphone\", \"screen_share\" or \"screen_share_audio\"",
                                      JSONConvert.enumeration(TrackSource.self))
            if let kind, let source, source.kind != kind {
                walker.problem(itemPath.key("source"), expected: "a \(kind.rawValue) source (\(TrackSource.sources(of: kind)))",
                               found: "\"\(source.rawValue)\", a \(source.kind.rawValue) source")
            }
            // Absent means 0: the session clock's zero. See docs/capture-format.md.
            let startOffsetMs = walker.field(object, "startOffsetMs", at: itemPath, required: false,
                                             expected: Self.offsetExpected, JSONConvert.integer(in: CaptureLimits.startOffsetMs))

            var layers: [TrackLayer] = []
            var file: String?
            switch kind {
            case .video:
                layers = decodeLayers(object, at: itemPath)
                if object["file"] != nil {
                    walker.problem(itemPath.key("file"), expected: "no \"file\" on a video track (its files are in \"layers\")", found: "a \"file\" member")
                }
            case .audio:
                file = mediaFile(object, at: itemPath)
                if object["layers"] != nil {
                    walker.problem(itemPath.key("layers"), expected: "no \"layers\" on an audio track (it has a single \"file\")", found: "a \"layers\" member")
                }
            case nil:
                break
            }
            if let id, let participantId, let kind, let source {
                tracks.append(Track(id: id, participantId: participantId, kind: kind, source: source,
                                    startOffsetMs: startOffsetMs ?? 0, layers: layers, file: file))
            }
        }
        return (tracks, owners)
    }

    private mutating func decodeLayers(_ track: JSONObject, at trackPath: JSONPath) -> [TrackLayer] {
        guard let elements = walker.field(track, "layers", at: trackPath, expected: "a non-empty array of layers", JSONConvert.array) else { return [] }
        let path = trackPath.key("layers")
        if elements.isEmpty { walker.problem(path, expected: "a non-empty array of layers", found: "an empty array") }
        var layers: [TrackLayer] = []
        var firstIndex: [LayerQuality: Int] = [:]
        for (i, element) in elements.enumerated() {
            let itemPath = path.index(i)
            guard let object = walker.object(element, at: itemPath) else { continue }
            let quality = walker.field(object, "quality", at: itemPath, expected: "\"low\", \"medium\" or \"high\"", JSONConvert.enumeration(LayerQuality.self))
            if let quality {
                if let first = firstIndex[quality] {
                    walker.problem(itemPath.key("quality"), expected: "a quality not used by another layer of this track",
                                   found: "\"\(quality.rawValue)\", already the quality of layers[\(first)]")
                } else {
                    firstIndex[quality] = i
                }
            }
            let width = walker.field(object, "width", at: itemPath, expected: Self.sideExpected, JSONConvert.integer(in: CaptureLimits.layerSide))
            let height = walker.field(object, "height", at: itemPath, expected: Self.sideExpected, JSONConvert.integer(in: CaptureLimits.layerSide))
            // Both sides are within layerSide here, so the product cannot overflow.
            if let width, let height, width * height > CaptureLimits.maxLayerPixels {
                walker.problem(itemPath, expected: "width x height at most \(CaptureLimits.maxLayerPixels) pixels (8192 x 8192; docs/limits.md)",
                               found: "\(width) x \(height) = \(width * height) pixels")
            }
            let file = mediaFile(object, at: itemPath)
            let startOffsetMs = walker.field(object, "startOffsetMs", at: itemPath, required: false,
                                             expected: Self.offsetExpected, JSONConvert.integer(in: CaptureLimits.startOffsetMs))
            if let quality, let width, let height, let file, width * height <= CaptureLimits.maxLayerPixels {
                layers.append(TrackLayer(quality: quality, width: width, height: height, file: file, startOffsetMs: startOffsetMs))
            }
        }
        return layers
    }

    /// A `file` member: a relative path that stays inside the capture directory.
    private mutating func mediaFile(_ object: JSONObject, at path: JSONPath) -> String? {
        guard let file = walker.field(object, "file", at: path, expected: "a path relative to the capture directory", JSONConvert.nonEmptyString) else { return nil }
        if let violation = mediaPaths.violation(file) {
            walker.problem(path.key("file"), expected: violation.expected, found: violation.found)
            return nil
        }
        return file
    }
}

extension ManifestDecoder {
    /// What an `atMs` or `startOffsetMs` must be.
    static let offsetExpected = "an integer from 0 to \(CaptureLimits.maxSessionMs) (milliseconds, at most 24 h; docs/limits.md)"
    /// What a layer's `width` or `height` must be.
    static let sideExpected = "an integer from \(CaptureLimits.layerSide.lowerBound) to \(CaptureLimits.layerSide.upperBound) (pixels; docs/limits.md)"
}

extension TrackSource {
    /// Camera and screen share are video; microphone and screen-share audio are audio.
    var kind: TrackKind {
        switch self {
        case .camera, .screenShare: return .video
        case .microphone, .screenShareAudio: return .audio
        }
    }

    static func sources(of kind: TrackKind) -> String {
        kind == .video ? "\"camera\" or \"screen_share\"" : "\"microphone\" or \"screen_share_audio\""
    }
}
