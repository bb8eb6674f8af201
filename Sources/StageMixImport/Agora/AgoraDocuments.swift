import StageMixJSON

/// What Agora's own JSON says about a recording, wherever the user saved it, recognised by shape:
///
/// - a `fileList` member: the `stop` or `query` response (`serverResponse.fileList`), the `uploaded`
///   callback (event 31, `payload.details.fileList`) or `cloud_recording_file_infos`; an array of
///   `{fileName, trackType, uid, mixedAllUser, isPlayable, sliceStartTime}`, or with
///   `fileListMode` `string` one file name;
/// - an object whose `msgName` is `recorder_slice_start` (event 42): `startUtcMs`, and
///   `discontinueUtcMs` when the uid's recording was interrupted before.
///
/// Once recognised, a member of the wrong type is a problem naming the document and the member.
/// Timestamps may be JSON numbers or strings of digits (Unix milliseconds): Agora's APIs write both.
struct AgoraDocuments {
    struct ListedFile: Sendable {
        var fileName: String
        var trackType: String?
        var uid: String?
        var mixedAllUser: Bool?
        var isPlayable: Bool?
        var sliceStartMs: Int64?
        var document: String
    }

    struct SliceStart: Sendable {
        var uid: String?
        var startMs: Int64
        var discontinueMs: Int64?
        var document: String
    }

    private(set) var files: [ListedFile] = []
    private(set) var sliceStarts: [SliceStart] = []
    private(set) var problems: [JSONProblem] = []

    init(_ documents: [FoundDocument]) {
        for document in documents {
            var walker = document.walker()
            DocumentWalk.objects(in: .object(document.object), at: document.root) { object, path in
                recognise(object, at: path, in: document.name, &walker)
            }
            problems += walker.problems
        }
    }

    /// One object of a document (``DocumentWalk``): what of it is this platform's; nil when it was read whole,
    /// else the members not to look into.
    private mutating func recognise(_ object: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) -> Set<String>? {
        if object["fileList"] != nil { readFileList(object, at: path, in: name, &walker) }
        if case .string("recorder_slice_start")? = object["msgName"] { readSliceStart(object, at: path, in: name, &walker) }
        return ["fileList"]
    }

    private mutating func readFileList(_ object: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        let listPath = path.key("fileList")
        switch object["fileList"] {
        case .string(let single)?:
            if !single.isEmpty { files.append(ListedFile(fileName: single, document: name)) }
        case .array(let elements)?:
            for (i, element) in elements.prefix(100_000).enumerated() {
                let at = listPath.index(i)
                guard let entry = walker.object(element, at: at, expected: "a file of the recording (an object with fileName)") else { continue }
                let fileName = walker.field(entry, "fileName", at: at, expected: "the file's name (a string)", JSONConvert.nonEmptyString)
                let trackType = walker.field(entry, "trackType", at: at, required: false, expected: "audio, video or audio_and_video", JSONConvert.string)
                let uid = walker.field(entry, "uid", at: at, required: false, expected: "the user's uid (a string or a number)", Self.uid)
                let mixed = walker.field(entry, "mixedAllUser", at: at, required: false, expected: "true or false", JSONConvert.bool)
                let playable = walker.field(entry, "isPlayable", at: at, required: false, expected: "true or false", JSONConvert.bool)
                let start = walker.field(entry, "sliceStartTime", at: at, required: false,
                                         expected: "Unix milliseconds (a number or a string of digits)", PlatformClock.unixMs)
                if let fileName {
                    files.append(ListedFile(fileName: fileName, trackType: trackType, uid: uid, mixedAllUser: mixed, isPlayable: playable,
                                            sliceStartMs: start, document: name))
                }
            }
        default:
            walker.problem(listPath, expected: "an array of the recording's files, or one file's name", found: walker.found(object["fileList"]!))
        }
    }

    private mutating func readSliceStart(_ object: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        let ms = "Unix milliseconds (a number or a string of digits)"
        let start = walker.field(object, "startUtcMs", at: path, expected: ms, PlatformClock.unixMs)
        // Agora writes 0 when there was no interruption.
        let discontinue = walker.field(object, "discontinueUtcMs", at: path, required: false, expected: ms) { value in
            PlatformClock.integer(value) == 0 ? 0 : PlatformClock.unixMs(value)
        }
        let uid = walker.field(object, "uid", at: path, required: false, expected: "the user's uid (a string or a number)", Self.uid)
        if let start { sliceStarts.append(SliceStart(uid: uid, startMs: start, discontinueMs: discontinue == 0 ? nil : discontinue, document: name)) }
    }

    /// A uid as Agora writes it: a string (`"123"`), or a number.
    static func uid(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text) where !text.isEmpty: return text
        case .number(let number): return number.integer.map(String.init)
        default: return nil
        }
    }
}
