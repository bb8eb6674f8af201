import Foundation
import StageMixJSON
import StageMixPublishing
import StageMixQueue

/// A composition as Twilio's Composition resource shows it (snake_case, Twilio's statuses and fields),
/// for compositions asked for through the Twilio-shaped API. URLs are absolute, on the host the request
/// came to. `account_sid` is the API key; `size`, `duration` and `bitrate` (kbit/s) are read from a
/// local output once completed; an output in a bucket is named by `media_external_location` instead.
struct TwilioCompositionView: Encodable {
    var account_sid: String
    var audio_sources: [String]
    var audio_sources_excluded: [String]
    var bitrate: Int
    var date_completed: String?
    var date_created: String
    var date_deleted: String?
    var duration: Int
    var format: String
    var links: [String: String]
    var media_external_location: String?
    var resolution: String
    var room_sid: String
    var sid: String
    var size: Int
    var status: String
    var status_callback: String?
    var status_callback_method: String
    var trim: Bool
    var url: String
    var video_layout: JSONValue

    init(_ composition: Composition, job: Job, parameters: TwilioParameters, base: String, now: Double) {
        let sid = TwilioParameters.sid(of: composition.id)
        account_sid = composition.apiKey
        audio_sources = parameters.audioSources
        audio_sources_excluded = parameters.audioSourcesExcluded
        date_created = Self.date(composition.createdAt)
        status = Self.status(of: job.state)
        date_completed = job.state == .succeeded ? Self.date(job.updatedAt) : nil
        date_deleted = job.state == .cancelled ? Self.date(job.updatedAt) : nil
        format = parameters.format
        resolution = parameters.resolution
        room_sid = parameters.roomSid
        self.sid = sid
        status_callback = composition.callbackURL
        status_callback_method = parameters.statusCallbackMethod
        trim = parameters.trim
        url = "\(base)/v1/Compositions/\(sid)"
        links = ["media": "\(base)/v1/Compositions/\(sid)/Media", "stagemix": "\(base)/v1/compositions/\(composition.id)"]
        video_layout = (try? JSONTextParser.parse(Array(parameters.videoLayout.utf8))) ?? .null
        let view = CompositionView(composition, job: job, now: now)
        duration = Int((view.duration ?? 0).rounded())
        size = job.state == .succeeded ? (composition.localMediaBytes ?? 0) : 0
        bitrate = duration > 0 ? Int((Double(size) * 8 / Double(duration) / 1000).rounded()) : 0
        if job.state == .succeeded, composition.destination.folder == nil {
            media_external_location = composition.destination.location(of: OutputFiles.mp4)
        }
    }

    /// Twilio's words for a job's state: a job failed and waiting to retry is still `enqueued`; a
    /// cancelled one is `deleted`.
    static func status(of state: JobState) -> String {
        switch state {
        case .queued, .failed: "enqueued"
        case .running: "processing"
        case .succeeded: "completed"
        case .dead: "failed"
        case .cancelled: "deleted"
        }
    }

    /// The job states a Twilio status covers.
    static func states(for status: String) -> [JobState]? {
        let states = JobState.allCases.filter { Self.status(of: $0) == status }
        return states.isEmpty ? nil : states
    }

    /// ISO 8601 in UTC to the second, as Twilio writes dates.
    static func date(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}
