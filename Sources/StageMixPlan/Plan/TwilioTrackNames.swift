import Foundation
public import StageMixCapture
public import StageMixLayout

/// What a Twilio layout calls each track of a capture. `stagemix import twilio` records every
/// recording's `track_name`, `source_sid` (`MT…`) and participant sid (`PA…`) in the capture's
/// `import.json` (`tracks`), and the track id is the recording sid (`RT…`). A capture without them
/// (another platform's, a synthetic one) names each track by its id, which then
/// stands for its recording and track sid, and its participant id for the `PA` sid.
public struct TwilioTrackNames: Sendable {
    private var named: [String: TwilioSourceIdentity]

    public init(_ named: [String: TwilioSourceIdentity] = [:]) { self.named = named }

    /// From the capture's `import.json`, if it has one (in a folder or a bucket).
    public init(capture: Capture) {
        named = [:]
        guard let tracks = capture.importNote?.tracks else { return }
        for (id, fields) in tracks {
            guard let track = capture.track(id) else { continue }
            named[id] = TwilioSourceIdentity(trackName: fields["track_name"] ?? id, recordingSid: id,
                                             trackSid: fields["source_sid"] ?? id,
                                             participantSid: fields["participant_sid"] ?? track.participantId)
        }
    }

    public func identity(of track: Track) -> TwilioSourceIdentity {
        named[track.id] ?? TwilioSourceIdentity(trackName: track.id, recordingSid: track.id, trackSid: track.id,
                                                participantSid: track.participantId)
    }
}
