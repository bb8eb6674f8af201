public import Foundation
import StageMixJSON
import StageMixLayout
public import StageMixOptions
import StageMixQueue

/// The body of `POST /v1/compositions` and `POST /v1/plans`, read by the strict parser and checked
/// field by field: every error names its field by its JSON path without the `$.` (`capture`,
/// `options.fps`, `options['odd name']`), and a member name given twice anywhere is refused. `options` takes every compose option under its
/// JSON name; `prices`, `tiers` and `edits` are the documents themselves, not file paths, kept for
/// the job only once it is queued (``InlineTables``).
public struct CompositionRequest: Sendable {
    /// As the caller wrote it: relative to a capture root, or an `s3://` URL.
    public var capture: String
    /// What the job reads: the capture folder's real path, or the URL in one spelling.
    public var capturePath: String
    public var layout: String
    public var options: ComposeOptions
    public var callbackURL: String?
    public var idempotencyKey: String?
    /// Documents given inline (prices, tiers, edits), not yet kept: the options name where each will
    /// be once a job needs it.
    public var inline: [InlineDocument]

    /// Largest request body read.
    public static let maxBodyBytes = 1 << 20

    enum Kind { case string, integer, number, object, stringOrNumber, boolean }
    static let optionKinds: [String: Kind] = [
        "resolution": .string, "fps": .integer, "pauseGrace": .number, "prices": .object, "tiers": .object,
        "overflowTier": .string, "segmentSeconds": .number, "segmentFormat": .string, "preset": .string,
        "videoBitrate": .string, "crf": .number, "audioBitrate": .string, "encoderThreads": .integer,
        "loudness": .stringOrNumber, "mp4": .boolean, "thumbnails": .number,
        "renditions": .string, "edits": .object, "labels": .boolean, "chunkSeconds": .number, "follow": .boolean,
    ]
    static let topLevelFields: Set<String> = ["capture", "layout", "options", "callbackUrl", "idempotencyKey"]

    public static func parse(_ data: Data, roots: CaptureRoots, storage: StorageAllowList, callbacks: CallbackPolicy, tables: InlineTables)
        throws(Problem) -> CompositionRequest
    {
        let value: JSONValue
        do {
            value = try JSONTextParser.parse(Array(data))
        } catch {
            throw Problem.malformed("the body is not JSON: \("\(error)".prefix(200))")
        }
        guard case .object(let body) = value else { throw Problem.malformed("the body must be a JSON object, not \(value.kind)") }
        // A decoder would keep one of the two values without a word; the caller must choose.
        if let duplicate = value.duplicateKeyPath() {
            throw Problem.invalid(duplicate.fieldName, "is given more than once; each field may appear once")
        }
        if let unknown = body.members.map(\.key).sorted().first(where: { !topLevelFields.contains($0) }) {
            throw Problem.invalid(JSONPath.root.key(unknown).fieldName,
                                  "unknown field; the fields are \(topLevelFields.sorted().joined(separator: ", "))")
        }
        guard let captureValue = body["capture"] else { throw Problem.invalid("capture", "is required") }
        guard case .string(let capture) = captureValue else { throw Problem.invalid("capture", "must be a string, not \(captureValue.kind)") }
        // A URL names a capture in a bucket, read only within --allow-storage; anything else a folder under a capture root.
        let capturePath = capture.contains("://") ? try storage.capture(capture) : try roots.resolve(capture)

        let settings = try CompositionSettings(body, tables: tables)
        if settings.options.follow == true, capture.contains("://") {
            throw Problem.invalid("options.follow", "follows a capture folder under a capture root, not one in a bucket (not yet)")
        }
        var callbackURL: String?
        if let value = present(body["callbackUrl"]) {
            guard case .string(let text) = value else { throw Problem.invalid("callbackUrl", "must be a string, not \(value.kind)") }
            callbackURL = try callbacks.check(text).absoluteString
        }
        var idempotencyKey: String?
        if let value = present(body["idempotencyKey"]) {
            guard case .string(let key) = value, (1...255).contains(key.utf8.count),
                  key.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7f }) else {
                throw Problem.invalid("idempotencyKey", "must be a string of 1 to 255 printable ASCII characters")
            }
            idempotencyKey = key
        }
        return CompositionRequest(capture: capture, capturePath: capturePath, layout: settings.layout,
                                  options: settings.options, callbackURL: callbackURL, idempotencyKey: idempotencyKey,
                                  inline: settings.inline)
    }

    static func set(_ name: String, _ value: JSONValue, in options: inout ComposeOptions, inline: inout [InlineDocument],
                    tables: InlineTables) throws(Problem) {
        let field = JSONPath.root.key("options").key(name).fieldName
        guard let kind = optionKinds[name] else {
            throw Problem.invalid(field, "unknown option; the options are \(optionKinds.keys.sorted().joined(separator: ", "))")
        }
        if case .null = value { return }
        func string() throws(Problem) -> String {
            guard case .string(let s) = value else { throw Problem.invalid(field, "must be a string, not \(value.kind)") }
            guard s.utf8.count <= 256 else { throw Problem.invalid(field, "must be at most 256 bytes") }
            return s
        }
        func number() throws(Problem) -> Double {
            guard case .number(let n) = value, n.value.isFinite else { throw Problem.invalid(field, "must be a number, not \(value.kind)") }
            return n.value
        }
        func integer() throws(Problem) -> Int {
            let d = try number()
            guard d == d.rounded(), abs(d) < 1e9 else { throw Problem.invalid(field, "must be a whole number") }
            return Int(d)
        }
        switch (name, kind) {
        case ("resolution", _): options.resolution = try string()
        case ("fps", _): options.fps = try integer()
        case ("pauseGrace", _): options.pauseGrace = try number()
        case ("overflowTier", _): options.overflowTier = try string()
        case ("segmentSeconds", _): options.segmentSeconds = try number()
        case ("segmentFormat", _): options.segmentFormat = try string()
        case ("preset", _): options.preset = try string()
        case ("videoBitrate", _): options.videoBitrate = try string()
        case ("crf", _): options.crf = try number()
        case ("audioBitrate", _): options.audioBitrate = try string()
        case ("encoderThreads", _): options.encoderThreads = try integer()
        case ("loudness", _):
            if case .number(let n) = value { options.loudness = ComposeOptionsText.plain(n.value) } else { options.loudness = try string() }
        case ("thumbnails", _): options.thumbnails = try number()
        case ("chunkSeconds", _): options.chunkSeconds = try number()
        case ("renditions", _): options.renditions = try string()
        case ("mp4", _):
            guard case .bool(let b) = value else { throw Problem.invalid(field, "must be true or false, not \(value.kind)") }
            options.mp4 = b ? true : nil
        case ("follow", _):
            guard case .bool(let b) = value else { throw Problem.invalid(field, "must be true or false, not \(value.kind)") }
            options.follow = b ? true : nil
        case ("labels", _):
            guard case .bool(let b) = value else { throw Problem.invalid(field, "must be true or false, not \(value.kind)") }
            options.labels = b ? nil : false
        // Checked where the request is planned (tables as compose reads them, edits against the capture).
        case ("prices", _): options.prices = try tables.encoded(value, field: field, kind: .prices, into: &inline)
        case ("tiers", _): options.tiers = try tables.encoded(value, field: field, kind: .tiers, into: &inline)
        case ("edits", _): options.edits = try tables.encoded(value, field: field, kind: .edits, into: &inline)
        default: throw Problem.invalid(field, "unknown option")
        }
    }

    /// `--pause-grace` as the JSON name `pauseGrace`.
    /// An option's problem as the API says it: the option's JSON field, and other options named by
    /// theirs (`options.videoBitrate`), never by the command line's flags (`--video-bitrate`).
    static func invalid(_ error: OptionError) -> Problem {
        Problem.invalid("options.\(jsonName(error.option))", apiWords(error.message))
    }

    /// `--video-bitrate` to `options.videoBitrate` wherever a message names a flag.
    static func apiWords(_ message: String) -> String {
        var words = ""
        var rest = Substring(message)
        while let dashes = rest.range(of: "--") {
            words += rest[..<dashes.lowerBound]
            let flag = rest[dashes.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            words += flag.isEmpty ? "--" : "options." + jsonName(String(flag))
            rest = rest[dashes.upperBound...].dropFirst(flag.count)
        }
        return words + rest
    }

    static func jsonName(_ option: String) -> String {
        let words = option.drop(while: { $0 == "-" }).split(separator: "-")
        guard let first = words.first else { return option }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A member that is there and not `null`.
    private static func present(_ value: JSONValue?) -> JSONValue? {
        if let value, case .null = value { return nil }
        return value
    }

    /// Digest of the normalised request: the same capture, layout, options and callback give the same digest.
    public var digest: String {
        struct Canonical: Encodable {
            var capture: String
            var layout: String
            var options: ComposeOptions
            var callbackUrl: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Canonical(capture: capturePath, layout: layout, options: options, callbackUrl: callbackURL))) ?? Data()
        return SHA256Digest.hex(of: data)
    }

    /// One composition per value: the API key with the idempotency key, or with the request's digest.
    public func requestKey(apiKey: String) -> String {
        let material = idempotencyKey.map { "\(apiKey)\nidempotency-key\n\($0)" } ?? "\(apiKey)\nrequest\n\(digest)"
        return SHA256Digest.hex(of: Data(material.utf8))
    }
}

/// Number formatting shared with the options' own messages.
enum ComposeOptionsText {
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
