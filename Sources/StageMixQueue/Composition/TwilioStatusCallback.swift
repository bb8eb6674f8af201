import Foundation
import StageMixPublishing

/// A composition event as Twilio's status callback tells it, for a composition asked for through the
/// Twilio-shaped API: Twilio's event name (`composition-started`...) and its form parameters.
/// `AccountSid` is the API key (the service's counterpart of a Twilio account); URIs are relative, as Twilio's are.
struct TwilioStatusCallback {
    var event: String
    var fields: FormFields

    /// nil for an event Twilio has no callback for (a cancelled composition is `deleted`, told by no event).
    init?(_ event: CompositionEvent, composition: Composition, job: Job, now: Double, step: Int?) {
        let name: String
        switch event {
        case .queued: name = "composition-enqueued"
        case .started: name = "composition-started"
        case .progress: name = "composition-progress"
        case .completed: name = "composition-available"
        case .failed: name = "composition-failed"
        case .cancelled: return nil
        }
        let sid = TwilioParameters.sid(of: composition.id)
        var pairs: [(name: String, value: String)] = [
            ("AccountSid", composition.apiKey), ("RoomSid", composition.twilio?.roomSid ?? composition.capture),
            ("CompositionSid", sid), ("StatusCallbackEvent", name), ("Timestamp", CompositionView.timestamp(now)),
        ]
        let view = CompositionView(composition, job: job, now: now)
        switch event {
        case .progress:
            pairs.append(("PercentageDone", "\(step ?? Int(job.progress))"))
            if let left = view.secondsLeft { pairs.append(("SecondsRemaining", "\(Int(left.rounded(.up)))")) }
        case .completed:
            pairs.append(("CompositionUri", "/v1/Compositions/\(sid)"))
            pairs.append(("MediaUri", "/v1/Compositions/\(sid)/Media"))
            if let size = composition.localMediaBytes { pairs.append(("Size", "\(size)")) }
            if let duration = view.duration { pairs.append(("Duration", "\(Int(duration.rounded()))")) }
        case .failed:
            pairs.append(("FailedOperation", "composition"))
            if let message = view.error?.message { pairs.append(("ErrorMessage", String(message.prefix(1000)))) }
        case .queued, .started, .cancelled:
            break
        }
        self.event = name
        fields = FormFields(pairs)
    }
}
