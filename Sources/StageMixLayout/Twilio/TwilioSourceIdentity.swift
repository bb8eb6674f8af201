/// What a Twilio layout can call a track by: its track name and its sids. For a room imported with
/// `stagemix import twilio` these are the recording's (`RT…`), the published track's (`MT…`) and the
/// participant's (`PA…`) sids, from the capture's `import.json`; for any other capture, the track id
/// stands for the recording and track sids and names the track, and the participant id is its `PA`.
public struct TwilioSourceIdentity: Sendable, Hashable, Codable {
    public var trackName: String
    public var recordingSid: String
    public var trackSid: String
    public var participantSid: String

    public init(trackName: String, recordingSid: String, trackSid: String, participantSid: String) {
        self.trackName = trackName
        self.recordingSid = recordingSid
        self.trackSid = trackSid
        self.participantSid = participantSid
    }
}
