import Foundation
import StageMixPublishing
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// A queue database made before a column was added gains it when opened, keeping its rows; the new
/// columns carry a Twilio composition's parameters and its callbacks' delivery, and a followed
/// composition's recorded and composed positions.
@Suite("Schema upgrade")
struct SchemaUpgradeTests {
    @Test(arguments: QueueBackend.allCases)
    func anEarlierDatabaseGainsTheNewColumnsAndKeepsItsRows(backend: QueueBackend) async throws {
        let url = try await backend.makeURL()
        let parameters = TwilioParameters(roomSid: "RM1", videoLayout: #"{"grid": {"video_sources": ["*"]}}"#, audioSources: ["bob*"],
                                          audioSourcesExcluded: [], resolution: "640x480", trim: true, format: "mp4", statusCallbackMethod: "GET")
        func draft(_ key: String, twilio: TwilioParameters?) -> CompositionDraft {
            CompositionDraft(apiKey: "k", requestKey: key, requestDigest: key, idempotencyKey: nil, callbackURL: "http://127.0.0.1:9/cb",
                             capture: "RM1", layout: "twilio", spec: JobSpec(capture: "/captures/RM1", out: "/out"), maxAttempts: 3, twilio: twilio)
        }
        let root = try OutputDestination(parsing: "/out", relativeTo: "/")
        // A database as the version before the Twilio-shaped API left it: the columns dropped, a row in it.
        let old = try #require(try await QueueURL(url).open() as? any SQLJobStore)
        guard case .created(let earlier, _) = try await old.createComposition(draft("earlier", twilio: nil), outputRoot: root) else {
            Issue.record("not created"); return
        }
        try await old.transaction { tx in
            _ = try await tx.query("DROP INDEX stagemix_jobs_by_parent", [])
            for added in JobSQL.addedColumns(real: "REAL", integer: "INTEGER") {
                _ = try await tx.query("ALTER TABLE \(added.table) DROP COLUMN \(added.column)", [])
            }
        }
        await old.close()

        let store = try #require(try await QueueURL(url).open() as? any SQLJobStore)
        defer { Task { await store.close() } }
        #expect(try await store.composition(id: earlier.id, apiKey: "k")?.0.twilio == nil)
        // The earlier job reads back whole, with no chunk columns set.
        let earlierJob = try #require(try await store.job(id: earlier.id))
        #expect(earlierJob.phase == nil && earlierJob.parentID == nil && earlierJob.startedAt == nil && earlierJob.followPosition == nil)
        guard case .created(let made, _) = try await store.createComposition(draft("twilio", twilio: parameters), outputRoot: root) else {
            Issue.record("not created"); return
        }
        #expect(try await store.composition(id: made.id, apiKey: "k")?.0.twilio == parameters)
        // Its queued event is Twilio's, sent as a GET, form-encoded.
        let event = try #require(try await store.webhooks(compositionID: made.id).first)
        #expect(event.type == "composition-enqueued" && event.delivery == .twilio(method: "GET"))
        let fields = try #require(FormFields(decoding: Substring(event.body)))
        #expect(fields.values("CompositionSid") == [TwilioParameters.sid(of: made.id)] && fields.values("RoomSid") == ["RM1"])
        #expect(TwilioParameters.id(ofSid: TwilioParameters.sid(of: made.id)) == made.id)

        // The earlier job, taken by a worker that follows its recording, has its positions stored.
        let lease = try #require(try await store.claim(worker: "w", leaseSeconds: 30)?.lease)
        #expect(lease.jobID == earlier.id)
        let position = FollowPosition(recordedSeconds: 12.5, composedSeconds: 8)
        #expect(try await store.heartbeat(lease, leaseSeconds: 30, progress: nil, followPosition: position) == .keepRunning)
        #expect(try await store.job(id: earlier.id)?.followPosition == position)
        #expect(try await store.composition(id: earlier.id, apiKey: "k")?.1.followPosition == position)
    }
}
