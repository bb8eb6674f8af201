import Foundation
import StageMixJSON
import StageMixLayout
import StageMixOptions
import StageMixQueue

/// The form of Twilio's `POST /v1/Compositions`, checked parameter by parameter and turned into an
/// ordinary composition request: the room is the capture folder `RoomSid` names under a capture root,
/// and `VideoLayout`, `Resolution`, `AudioSources`, `AudioSourcesExcluded` and `Trim` become one Twilio
/// layout document (`--layout twilio:FILE`), kept like any inline document. Errors name the parameter.
struct TwilioCompositionRequest {
    var request: CompositionRequest
    var parameters: TwilioParameters

    static let names: Set<String> = ["RoomSid", "VideoLayout", "AudioSources", "AudioSourcesExcluded", "Resolution", "Format", "Trim",
                                     "StatusCallback", "StatusCallbackMethod"]
    /// Twilio's libraries send a list as the same name once per item.
    static let lists: Set<String> = ["AudioSources", "AudioSourcesExcluded"]

    static func parse(_ body: Data, contentType: String?, roots: CaptureRoots, callbacks: CallbackPolicy, tables: InlineTables)
        throws(Problem) -> TwilioCompositionRequest
    {
        if let contentType, !contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            throw Problem.malformed("the body must be form-encoded (application/x-www-form-urlencoded), as Twilio's API takes it, not \(contentType.prefix(80))")
        }
        guard let text = String(data: body, encoding: .utf8), let form = FormFields(decoding: Substring(text)) else {
            throw Problem.malformed("the body is not form-encoded UTF-8 text")
        }
        var seen: Set<String> = []
        for (name, _) in form.pairs {
            guard names.contains(name) else {
                throw Problem.invalid(String(name.prefix(64)), "unknown parameter; the parameters are \(names.sorted().joined(separator: ", "))")
            }
            guard lists.contains(name) || seen.insert(name).inserted else { throw Problem.invalid(name, "is given more than once") }
        }
        func single(_ name: String) -> String? { form.values(name).first }

        guard let roomSid = single("RoomSid"), !roomSid.isEmpty else { throw Problem.invalid("RoomSid", "is required") }
        let capturePath: String
        do {
            capturePath = try roots.resolve(roomSid)
        } catch {
            throw Problem.invalid("RoomSid", "names the folder of an imported room (stagemix import twilio ... --out <capture root>/<RoomSid>): "
                                  + error.detail.replacingOccurrences(of: "capture: ", with: ""))
        }

        let audio = form.values("AudioSources").filter { !$0.isEmpty }
        let excluded = form.values("AudioSourcesExcluded").filter { !$0.isEmpty }
        guard let layoutText = single("VideoLayout") else {
            if audio.isEmpty { throw Problem.invalid("VideoLayout", "is required (Twilio's rule: VideoLayout or AudioSources)") }
            throw Problem.invalid("VideoLayout", "is required: StageMix composes video, and does not make audio-only compositions")
        }
        let layout: JSONValue
        do {
            layout = try JSONTextParser.parse(Array(layoutText.utf8))
        } catch {
            throw Problem.invalid("VideoLayout", "is not JSON: \("\(error)".prefix(200))")
        }
        guard case .object = layout else { throw Problem.invalid("VideoLayout", "must be a JSON object of regions, not \(layout.kind)") }
        if let duplicate = layout.duplicateKeyPath() {
            throw Problem.invalid("VideoLayout", "\(duplicate) is given more than once")
        }

        let resolution = single("Resolution") ?? "640x480"
        let format = (single("Format") ?? "mp4").lowercased()
        guard format == "mp4" else {
            throw Problem.invalid("Format", "must be mp4: StageMix writes H.264 and AAC in MP4 (and HLS), not \(format.prefix(20))")
        }
        let trim: Bool
        switch single("Trim")?.lowercased() {
        case nil, "true": trim = true
        case "false": trim = false
        default: throw Problem.invalid("Trim", "must be true or false")
        }
        let method = (single("StatusCallbackMethod") ?? "POST").uppercased()
        guard method == "POST" || method == "GET" else { throw Problem.invalid("StatusCallbackMethod", "must be POST or GET") }
        let callbackURL = try single("StatusCallback").map { text throws(Problem) in try callbacks.check(text, field: "StatusCallback").absoluteString }

        // The layout document as compose reads it; the regions stay in the order and spelling given.
        var document = "{\"VideoLayout\": \(layoutText), \"Resolution\": \(Self.quoted(resolution)), \"Trim\": \(trim)"
        if !audio.isEmpty { document += ", \"AudioSources\": \(Self.quoted(audio))" }
        if !excluded.isEmpty { document += ", \"AudioSourcesExcluded\": \(Self.quoted(excluded))" }
        document += "}"
        guard document.utf8.count <= 256 << 10 else { throw Problem.invalid("VideoLayout", "must be at most 256 KiB") }

        var inline: [InlineDocument] = []
        var options = ComposeOptions(layout: Layout.twilioPrefix + tables.noted(Data(document.utf8), field: "VideoLayout", into: &inline))
        options.mp4 = true
        options = options.normalised(relativeTo: "/")
        let request = CompositionRequest(capture: roomSid, capturePath: capturePath, layout: "twilio", options: options,
                                         callbackURL: callbackURL, idempotencyKey: nil, inline: inline)
        let parameters = TwilioParameters(roomSid: roomSid, videoLayout: layoutText, audioSources: audio, audioSourcesExcluded: excluded,
                                          resolution: resolution, trim: trim, format: format, statusCallbackMethod: method)
        return TwilioCompositionRequest(request: request, parameters: parameters)
    }

    private static func quoted<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}
