import Foundation
import StageMixOptions
import StageMixPublishing

/// A composition as the API shows it (and as webhook events carry it): its status in the API's
/// words, progress and time left while composing (a followed composition's recorded and composed
/// positions instead of a time left), the outputs with billing and timeline summaries once
/// completed, the error once failed.
public struct CompositionView: Codable, Sendable, Hashable {
    public struct Outputs: Codable, Sendable, Hashable {
        public var directory: String
        public var playlist: String
        public var timeline: String
        public var billing: String
        public var plan: String
        public var report: String
        /// When the composition was asked for with `mp4`.
        public var mp4: String?
        /// When asked for with `thumbnails`: the WebVTT thumbnail track and the poster.
        public var thumbnails: String?
        public var poster: String?
    }

    public struct BillingSummary: Codable, Sendable, Hashable {
        public struct TierMinutes: Codable, Sendable, Hashable {
            public var tier: String
            public var minutes: Int
        }
        public var durationMs: Int
        public var peakPixels: Int
        public var outputTier: String
        public var minutesPerTier: [TierMinutes]
        public var currency: String?
        public var cost: Double?
    }

    public struct TimelineSummary: Codable, Sendable, Hashable {
        public struct Participant: Codable, Sendable, Hashable {
            public var participantId: String
            public var name: String
            /// Milliseconds on stage and shown (with a tile), as the video has them.
            public var onStageMs: Int
        }
        public var sessionId: String
        public var durationMs: Int
        public var segments: Int
        public var invitations: Int
        public var maxOnStage: Int
        public var participants: [Participant]
    }

    public struct Failure: Codable, Sendable, Hashable {
        public var message: String
        /// Whether asking again may succeed (the attempts ran out on a passing fault), or not (bad input).
        public var retryable: Bool
    }

    public struct Links: Codable, Sendable, Hashable {
        public var `self`: String
    }

    public var id: String
    /// `queued`, `composing`, `completed`, `failed` or `cancelled`.
    public var status: String
    public var capture: String
    public var layout: String
    public var callbackUrl: String?
    public var idempotencyKey: String?
    public var createdAt: String
    public var updatedAt: String
    public var attempt: Int
    public var maxAttempts: Int
    /// Percent, while composing and once completed.
    public var progress: Double?
    /// Never for a followed composition: its end is the session's, unknown until it comes.
    public var secondsLeft: Double?
    /// A followed composition while composing, once its attempt has told them: the session seconds
    /// recorded so far, and those composed (the lag is the difference).
    public var recordedSeconds: Double?
    public var composedSeconds: Double?
    public var cancelRequested: Bool?
    public var outputs: Outputs?
    /// Seconds of composed output.
    public var duration: Double?
    public var billing: BillingSummary?
    public var timeline: TimelineSummary?
    public var error: Failure?
    public var links: Links

    /// The API's status for a job state: a job failed and waiting to retry is still `queued`.
    public static func status(of state: JobState) -> String {
        switch state {
        case .queued, .failed: "queued"
        case .running: "composing"
        case .succeeded: "completed"
        case .dead: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// The job states an API status covers.
    public static func states(for status: String) -> [JobState]? {
        let states = JobState.allCases.filter { Self.status(of: $0) == status }
        return states.isEmpty ? nil : states
    }

    public static let statuses = ["queued", "composing", "completed", "failed", "cancelled"]

    public init(_ composition: Composition, job: Job, now: Double) {
        id = composition.id
        status = Self.status(of: job.state)
        capture = composition.capture
        layout = composition.layout
        callbackUrl = composition.callbackURL
        idempotencyKey = composition.idempotencyKey
        createdAt = Self.timestamp(composition.createdAt)
        updatedAt = Self.timestamp(job.updatedAt)
        attempt = job.attemptsUsed
        maxAttempts = job.maxAttempts
        links = Links(self: "/v1/compositions/\(composition.id)")
        switch job.state {
        case .running:
            progress = job.progress
            cancelRequested = job.cancelRequested ? true : nil
            if job.spec.options.follow == true {
                // Its percent says nothing until the session has ended; how much is recorded and composed does.
                recordedSeconds = job.followPosition?.recordedSeconds
                composedSeconds = job.followPosition?.composedSeconds
            } else if let startedAt = composition.startedAt {
                // A running job's `updatedAt` is when its progress last moved (a lease renewal does not change it).
                secondsLeft = TimeLeftEstimate.seconds(progress: job.progress, startedAt: startedAt, progressAt: job.updatedAt, now: now)
            }
        case .succeeded:
            progress = 100
            let destination = composition.destination
            func path(_ name: String) -> String { destination.location(of: name) }
            outputs = Outputs(directory: destination.description, playlist: path(OutputFiles.hlsPlaylist), timeline: path(OutputFiles.timeline),
                              billing: path(OutputFiles.billing), plan: path(OutputFiles.plan), report: path(OutputFiles.report),
                              mp4: job.spec.options.mp4 == true ? path(OutputFiles.mp4) : nil,
                              thumbnails: job.spec.options.thumbnails == nil ? nil : path(OutputFiles.thumbnailTrack),
                              poster: job.spec.options.thumbnails == nil ? nil : path(OutputFiles.poster))
            // Summaries are read from a local output; one in a bucket is listed by its URLs only.
            let directory = destination.folder
            billing = directory.flatMap { Self.load(BillingSummary.self, from: $0.appendingPathComponent(OutputFiles.billing)) }
            if let timeline = directory.flatMap({ Self.load(TimelineFile.self, from: $0.appendingPathComponent(OutputFiles.timeline)) }) {
                self.timeline = timeline.summary
                duration = Double(timeline.durationMs) / 1000
            } else if let billing {
                duration = Double(billing.durationMs) / 1000
            }
        case .dead:
            // A worker's permanent failures (compose refused the input or the options) say so first; any
            // other failure that killed the job ran out of attempts on passing faults.
            let message = job.lastError ?? "failed"
            error = Failure(message: message, retryable: ComposeChild.Failure(error: message)?.isRetryable ?? true)
        case .queued, .failed, .cancelled:
            break
        }
    }

    static func timestamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    private static func load<T: Decodable>(_ type: T.Type, from url: URL) -> T? {
        // Reports are StageMix's own and bounded by the capture limits; a missing or foreign file gives no summary.
        guard let data = try? Data(contentsOf: url), data.count < 256 << 20 else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    /// The part of `timeline.json` the summary needs.
    private struct TimelineFile: Decodable {
        struct Segment: Decodable {
            struct OnStage: Decodable {
                struct Track: Decodable {}
                var participantId: String
                var name: String
                var tracks: [Track]
                /// On stage with a tile: what the video shows (on stage with every track taken away is not).
                var isShown: Bool { !tracks.isEmpty }
            }
            var startMs: Int
            var endMs: Int
            var onStage: [OnStage]
        }
        struct Invitation: Decodable {}
        var sessionId: String
        var durationMs: Int
        var segments: [Segment]
        var invitations: [Invitation]

        var summary: TimelineSummary {
            var order: [String] = []
            var people: [String: TimelineSummary.Participant] = [:]
            for segment in segments {
                for person in segment.onStage where person.isShown {
                    if people[person.participantId] == nil {
                        order.append(person.participantId)
                        people[person.participantId] = .init(participantId: person.participantId, name: person.name, onStageMs: 0)
                    }
                    people[person.participantId]?.onStageMs += max(0, segment.endMs - segment.startMs)
                }
            }
            return TimelineSummary(sessionId: sessionId, durationMs: durationMs, segments: segments.count,
                                   invitations: invitations.count, maxOnStage: segments.map { $0.onStage.filter(\.isShown).count }.max() ?? 0,
                                   participants: order.compactMap { people[$0] })
        }
    }
}
