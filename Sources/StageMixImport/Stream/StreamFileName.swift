import StageMixCapture
import StageMixJSON

/// What the name of a Stream (GetStream) individual recording says: whose track it is, which, and
/// when it starts. Stream's `call_recording` names no user, so the name is the only tie between a file
/// and its user: `…_individual_<user>_<type>_<startMs>.mkv`, where `<type>` is one of the individual
/// recording's `output_types` (`audio_only`, `video_only`, `audio_video`, and the same with
/// `screenshare_` before them) and `<startMs>` Unix milliseconds. Stream's docs do not spell the name
/// out; this is the shape its files have, and a name that does not have it says nothing.
struct StreamFileName: Sendable, Equatable {
    var user: String
    var type: OutputType
    var startMs: Int64

    /// An individual recording's `output_types` value.
    enum OutputType: String, Sendable, CaseIterable {
        // Screen shares first: `screenshare_audio_only` also ends in `_audio_only`.
        case screenshareAudioOnly = "screenshare_audio_only", screenshareVideoOnly = "screenshare_video_only"
        case screenshareAudioVideo = "screenshare_audio_video"
        case audioOnly = "audio_only", videoOnly = "video_only", audioVideo = "audio_video"

        /// The sources a file of this type carries.
        var sources: [TrackSource] {
            switch self {
            case .audioOnly: [.microphone]
            case .videoOnly: [.camera]
            case .audioVideo: [.camera, .microphone]
            case .screenshareAudioOnly: [.screenShareAudio]
            case .screenshareVideoOnly: [.screenShare]
            case .screenshareAudioVideo: [.screenShare, .screenShareAudio]
            }
        }
    }

    init?(_ fileName: String) {
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(of: ".") { stem = stem[..<dot] }
        guard let cut = stem.lastIndex(of: "_"), let ms = PlatformClock.integer(.string(String(stem[stem.index(after: cut)...]))),
              PlatformClock.plausible.contains(ms) else { return nil }
        let rest = stem[..<cut]
        guard let type = OutputType.allCases.first(where: { rest.hasSuffix("_" + $0.rawValue) }) else { return nil }
        let head = rest.dropLast(type.rawValue.count + 1)
        let user: Substring
        if let marker = head.range(of: "_individual_", options: .backwards) {
            user = head[marker.upperBound...]
        } else if head.hasPrefix("individual_") {
            user = head.dropFirst("individual_".count)
        } else {
            return nil
        }
        guard !user.isEmpty else { return nil }
        self.user = String(user)
        self.type = type
        startMs = ms
    }
}
