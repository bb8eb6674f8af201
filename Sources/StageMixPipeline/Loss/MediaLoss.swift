public import StageMixCapture

/// A stretch of session time `[fromMs, toMs)` in which a subscribed track could not be shown or heard
/// as the plan says, and why. `report.json` lists them under `losses`.
public struct MediaLoss: Sendable, Hashable, Codable {
    /// Why the track was not shown or heard as planned.
    public enum Cause: String, Sendable, Hashable, Codable, CaseIterable {
        /// No file at the layer's or track's path.
        case missing
        /// The file could not be opened or read: not a regular file, not a container, no stream of the
        /// track's kind, or a read that passed its deadline.
        case unreadable
        /// The file ends before the track's planned interval does.
        case truncated
        /// The container reader dropped damaged packets (an Ogg page failing its CRC, a bad packet).
        case corruptPackets
        /// The decoder failed or concealed damage; the picture is frozen until the next keyframe decodes.
        case decodeErrors
        /// Video without a keyframe yet: nothing can be decoded until one arrives.
        case noKeyframeYet
        /// The file's timestamps jump by more than a second: nothing was recorded there.
        case timestampGap
        /// A picture larger than the media limits allow, refused without decoding it.
        case tooLarge
    }

    public var trackId: String
    /// The planned simulcast layer (video); nil for audio.
    public var layer: LayerQuality?
    public var file: String
    public var fromMs: Int
    public var toMs: Int
    public var cause: Cause
    /// The layer that stood in meanwhile (the closest readable one); nil when the tile showed the
    /// placeholder, a frozen picture, or the microphone was silent.
    public var standIn: LayerQuality?
    /// What went wrong, in the reader's words (the first occurrence when stretches were merged).
    public var detail: String?

    public init(trackId: String, layer: LayerQuality?, file: String, fromMs: Int, toMs: Int, cause: Cause,
                standIn: LayerQuality? = nil, detail: String? = nil) {
        self.trackId = trackId; self.layer = layer; self.file = file; self.fromMs = fromMs; self.toMs = toMs
        self.cause = cause; self.standIn = standIn; self.detail = detail
    }

    /// One line for a person: `TR_ana_mic 4.020-8.000 s truncated (media/ana-mic.ogg)`.
    public var summary: String {
        let what = layer.map { "\(trackId)/\($0.rawValue)" } ?? trackId
        let standing = standIn.map { ", \($0.rawValue) layer stood in" } ?? ""
        return "\(what) \(Self.seconds(fromMs))-\(Self.seconds(toMs)) s \(cause.rawValue)\(standing) (\(file))"
    }

    static func seconds(_ ms: Int) -> String {
        "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
    }
}
