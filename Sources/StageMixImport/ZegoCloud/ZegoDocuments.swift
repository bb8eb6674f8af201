import StageMixJSON

/// What ZEGOCLOUD's own JSON says about a single-stream recording, wherever the user saved it,
/// recognised by shape: any object with a `file_info` member (the recording status callback's
/// `detail`, event 1), whose entries are snake_case (`user_id`, `user_name`, `stream_id`, `file_id`,
/// `file_url`, `begin_timestamp`, `duration`, `media_track_type`, `resolution_width`,
/// `resolution_height`, `output_file_format`, `status`); and any object with a `RecordFiles` member
/// (the DescribeRecordStatus response's `Data`), the same fields in PascalCase. The callback's
/// `room_id` (or the response's `RoomId`) names the session.
///
/// Once recognised, a member of the wrong type is a problem naming the document and the member.
/// Numbers may be JSON numbers or strings of digits; `begin_timestamp` may also be ISO 8601 text.
struct ZegoDocuments {
    /// One file of the recording.
    struct RecordedFile: Sendable {
        var userId: String
        var userName: String?
        var streamId: String?
        /// `file_url`, else `file_id` (ZEGO gives no URL for Qiniu or Alibaba VOD storage).
        var reference: String
        var beginMs: Int64
        var durationMs: Int64?
        /// 1 audio only, 2 video only, 3 both.
        var trackType: Int?
        var width: Int?
        var height: Int?
        var format: String?
        var status: Int?
        var document: String
    }

    /// A file entry's members, as the callback (snake_case) and the query response (PascalCase) name them.
    private struct Names {
        var list, userId, userName, streamId, fileId, fileUrl, begin, duration, trackType, width, height, format, status, room: String
        static let callback = Names(list: "file_info", userId: "user_id", userName: "user_name", streamId: "stream_id", fileId: "file_id",
                                    fileUrl: "file_url", begin: "begin_timestamp", duration: "duration", trackType: "media_track_type",
                                    width: "resolution_width", height: "resolution_height", format: "output_file_format", status: "status",
                                    room: "room_id")
        static let query = Names(list: "RecordFiles", userId: "UserId", userName: "UserName", streamId: "StreamId", fileId: "FileId",
                                 fileUrl: "FileUrl", begin: "BeginTimestamp", duration: "Duration", trackType: "MediaTrackType",
                                 width: "ResolutionWidth", height: "ResolutionHeight", format: "OutputFileFormat", status: "Status",
                                 room: "RoomId")
    }

    private(set) var files: [RecordedFile] = []
    private(set) var roomId: String?
    private(set) var problems: [JSONProblem] = []

    init(_ documents: [FoundDocument]) {
        for document in documents {
            var walker = document.walker()
            visit(.object(document.object), at: document.root, depth: 0, in: document.name, room: nil, &walker)
            problems += walker.problems
        }
    }

    private mutating func visit(_ value: JSONValue, at path: JSONPath, depth: Int, in name: String, room: String?, _ walker: inout JSONWalker) {
        guard depth < 8 else { return }
        switch value {
        case .array(let elements):
            for (i, element) in elements.enumerated() { visit(element, at: path.index(i), depth: depth + 1, in: name, room: room, &walker) }
        case .object(let object):
            var room = room
            for names in [Names.callback, .query] {
                if case .string(let id)? = object[names.room], !id.isEmpty { room = id }
            }
            for names in [Names.callback, .query] where object[names.list] != nil {
                read(object, names, at: path, in: name, room: room, &walker)
            }
            for (key, member) in object.members where key != Names.callback.list && key != Names.query.list {
                visit(member, at: path.key(key), depth: depth + 1, in: name, room: room, &walker)
            }
        default:
            return
        }
    }

    private mutating func read(_ object: JSONObject, _ names: Names, at path: JSONPath, in name: String, room: String?, _ walker: inout JSONWalker) {
        guard let entries = walker.array(object, names.list, at: path, of: "the recording's files", limit: 100_000) else { return }
        if roomId == nil { roomId = room }
        let number = "a whole number (a number or a string of digits)"
        for (i, element) in entries.enumerated() {
            let at = path.key(names.list).index(i)
            guard let entry = walker.object(element, at: at, expected: "a file of the recording (an object)") else { continue }
            let userId = walker.field(entry, names.userId, at: at, expected: "the publishing user's id (a string)", Self.identifier)
            let userName = walker.field(entry, names.userName, at: at, required: false, expected: "the user's name (a string)", JSONConvert.string)
            let streamId = walker.field(entry, names.streamId, at: at, required: false, expected: "the stream's id (a string)", Self.identifier)
            let fileId = walker.field(entry, names.fileId, at: at, required: false, expected: "the file's name (a string)", JSONConvert.string)
            let fileUrl = walker.field(entry, names.fileUrl, at: at, required: false, expected: "the file's URL (a string)", JSONConvert.string)
            let begin = walker.field(entry, names.begin, at: at, expected: "Unix milliseconds (a number or a string of digits) or ISO 8601 text") {
                PlatformClock.unixMs($0) ?? PlatformClock.isoMs($0)
            }
            let duration = walker.field(entry, names.duration, at: at, required: false, expected: "milliseconds (\(number))") { value in
                PlatformClock.integer(value).flatMap { $0 >= 0 ? $0 : nil }
            }
            let trackType = walker.field(entry, names.trackType, at: at, required: false, expected: "1 (audio), 2 (video) or 3 (both)") { value in
                PlatformClock.integer(value).flatMap { (1...3).contains($0) ? Int($0) : nil }
            }
            let width = walker.field(entry, names.width, at: at, required: false, expected: "pixels (\(number))", Self.pixels)
            let height = walker.field(entry, names.height, at: at, required: false, expected: "pixels (\(number))", Self.pixels)
            let format = walker.field(entry, names.format, at: at, required: false, expected: "mp4, flv, hls, aac or jpg (a string)", JSONConvert.string)
            let status = walker.field(entry, names.status, at: at, required: false, expected: "the file's status (\(number))") { value in
                PlatformClock.integer(value).flatMap { (0...99).contains($0) ? Int($0) : nil }
            }
            let reference = [fileUrl, fileId].compactMap { $0 }.first { !$0.isEmpty }
            // Neither there nor empty (a member of the wrong type is reported already).
            let wellTyped = [names.fileUrl, names.fileId].allSatisfy { key in entry[key].map { JSONConvert.string($0) != nil } ?? true }
            if reference == nil, wellTyped {
                walker.problem(at.key(names.fileUrl), expected: "the file's URL (or \(names.fileId), its name)", found: "neither, or both empty")
            }
            guard let userId, let begin, let reference else { continue }
            files.append(RecordedFile(userId: userId, userName: userName, streamId: streamId, reference: reference, beginMs: begin,
                                      durationMs: duration, trackType: trackType, width: width, height: height, format: format?.lowercased(),
                                      status: status, document: name))
        }
    }

    /// An id ZEGO writes as a string (a number is taken too).
    static func identifier(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .number(let number): return number.integer.map(String.init)
        default: return nil
        }
    }

    static func pixels(_ value: JSONValue) -> Int? {
        PlatformClock.integer(value).flatMap { (0...16_384).contains($0) ? Int($0) : nil }
    }
}
