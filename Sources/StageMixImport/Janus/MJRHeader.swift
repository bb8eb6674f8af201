import StageMixJSON

/// The JSON header of a Janus recording (`MJR00002`): what was recorded and when.
public struct MJRHeader: Sendable, Equatable {
    public var kind: JanusMediaKind
    /// The header's `c`, lowercased: "opus", "vp8", "vp9", "h264", ... (the RTP payload type in the
    /// packets is Janus's own and says nothing).
    public var codec: String
    /// The header's `f` (fmtp), when the recorder wrote one.
    public var fmtp: String?
    /// `s`: when the recorder was created, CLOCK_REALTIME µs.
    public var createdUs: Int64
    /// `u`: when the first packet arrived (the header was written), CLOCK_REALTIME µs. Each packet's
    /// millisecond stamp counts from here.
    public var firstPacketUs: Int64
    /// `x`: RTP header extension ids to URIs, as far as the recorder lists them.
    public var extensions: [Int: String]

    public init(kind: JanusMediaKind, codec: String, fmtp: String? = nil, createdUs: Int64, firstPacketUs: Int64,
                extensions: [Int: String] = [:]) {
        self.kind = kind
        self.codec = codec
        self.fmtp = fmtp
        self.createdUs = createdUs
        self.firstPacketUs = firstPacketUs
        self.extensions = extensions
    }

    /// Parses the header's JSON; nil with the reason when it is not what Janus writes.
    static func parse(_ bytes: [UInt8]) -> Result<MJRHeader, HeaderProblem> {
        let value: JSONValue
        do { value = try JSONTextParser.parse(bytes) } catch { return .failure(HeaderProblem(text: "header is not JSON: \(error)")) }
        guard case .object(let object) = value else { return .failure(HeaderProblem(text: "header is \(value.summary), not an object")) }
        guard let letter = object["t"].flatMap(JSONConvert.string), let kind = JanusMediaKind(letter: letter) else {
            return .failure(HeaderProblem(text: "header has no media type \"t\" (a, v or d)"))
        }
        guard let codec = object["c"].flatMap(JSONConvert.nonEmptyString) else {
            return .failure(HeaderProblem(text: "header has no codec \"c\""))
        }
        func microseconds(_ key: String) -> Int64? {
            guard case .number(let n)? = object[key], let i = n.integer, i >= 0 else { return nil }
            return Int64(i)
        }
        guard let created = microseconds("s"), let first = microseconds("u") else {
            return .failure(HeaderProblem(text: "header has no times \"s\" and \"u\""))
        }
        var extensions: [Int: String] = [:]
        if case .object(let x)? = object["x"] {
            for (key, uri) in x.members {
                if let id = Int(key), let uri = JSONConvert.string(uri) { extensions[id] = uri }
            }
        }
        return .success(MJRHeader(kind: kind, codec: codec.lowercased(), fmtp: object["f"].flatMap(JSONConvert.string),
                                  createdUs: created, firstPacketUs: first, extensions: extensions))
    }

    struct HeaderProblem: Error { var text: String }
}
