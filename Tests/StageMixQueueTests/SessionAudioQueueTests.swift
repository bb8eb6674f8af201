import Foundation
import StageMixOptions
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTime
import Testing

/// A chunked composition's session audio (loudness pass, mix, AAC) as a job of its own beside its
/// chunks, on a real SQLite file and a real PostgreSQL server: claimed first, apart from the chunks in
/// their count and progress, rescued and retried as a chunk is, and failing the composition as a chunk does.
@Suite("Session audio on the queue")
struct SessionAudioQueueTests {
    func spec() -> JobSpec {
        let name = UUID().uuidString
        return JobSpec(capture: "/captures/\(name)", out: "/out/\(name)", options: ComposeOptions(chunkSeconds: 8))
    }

    /// Claims the composition and plans it into `count` chunks and the session's audio; returns its id.
    func planned(_ queue: any JobQueue, count: Int, maxAttempts: Int = 5) async throws -> String {
        let id = try await queue.enqueue(spec(), maxAttempts: maxAttempts).id
        let plan = try #require(try await queue.claim(worker: "planner", leaseSeconds: 30))
        #expect(try await queue.split(try #require(plan.lease), chunks: count, audio: true) == .applied)
        return id
    }

    @Test(arguments: QueueBackend.allCases)
    func theAudioIsClaimedFirstAndCountedApartFromTheChunks(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open()
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 2)
        let audio = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        #expect(audio.isSessionAudio && audio.parentID == id && audio.id == "\(id)-audio" && audio.chunk == Job.sessionAudioChunk)
        guard case .chunk(_, let part) = try AttemptKind(audio) else { Issue.record("not run as a chunk"); return }
        #expect(part == .audio)
        let c0 = try #require(try await queue.claim(worker: "b", leaseSeconds: 30))
        #expect(c0.chunk == 0 && !c0.isSessionAudio)
        #expect(try await queue.chunks(of: id).map(\.chunk) == [0, 1])
        #expect(try await queue.sessionAudio(of: id)?.id == audio.id)
        // Its progress is not the composition's: that is the chunks'.
        let before = try #require(try await queue.job(id: id)).progress
        #expect(try await queue.heartbeat(try #require(audio.lease), leaseSeconds: 30, progress: 90) == .keepRunning)
        #expect(try await queue.job(id: id)?.progress == before)
        #expect(try await queue.succeed(try #require(audio.lease)) == .applied)
        #expect(try await queue.countChunksByState()[.succeeded] == 0)
        #expect(try await queue.sessionAudio(of: id)?.state == .succeeded)
        // Planned again (a retried composition), its audio job is made anew with its chunks.
        #expect(try await queue.cancel(id: id) == .cancelled)
        #expect(try await queue.finishCancelled(try #require(c0.lease)) == .applied)
        #expect(try await queue.retry(id: id) == .requeued)
        let plan = try #require(try await queue.claim(worker: "a", leaseSeconds: 30))
        #expect(try await queue.split(try #require(plan.lease), chunks: 1, audio: true) == .applied)
        #expect(try await queue.sessionAudio(of: id)?.state == .queued)
        #expect(try await queue.chunks(of: id).map(\.state) == [.queued])
    }

    @Test(arguments: QueueBackend.allCases)
    func anAudioWhoseWorkerDiedIsTakenByAnotherAndOneDeadFailsTheComposition(backend: QueueBackend) async throws {
        let (queue, _) = try await backend.open(options: ChunkQueueTests.quickRetry)
        defer { Task { await queue.close() } }
        let id = try await planned(queue, count: 1, maxAttempts: 2)
        let lost = try #require(try await queue.claim(worker: "killed", leaseSeconds: 0.2))
        #expect(lost.isSessionAudio)
        try await Task.sleep(for: .milliseconds(400))
        let taken = try #require(try await queue.claim(worker: "b", leaseSeconds: 30))
        #expect(taken.id == lost.id && taken.attempt == 2)
        #expect(try await queue.succeed(try #require(lost.lease)) == .fenced)
        let join = try #require(try await queue.claim(worker: "j", leaseSeconds: 30, joins: true))
        // Out of attempts: the composition fails, naming the audio; its join is fenced, its chunk told to stop.
        let chunk = try #require(try await queue.claim(worker: "c", leaseSeconds: 30))
        #expect(try await queue.fail(try #require(taken.lease), error: "cannot read mic.opus", retryable: true) == .dead)
        let failed = try #require(try await queue.job(id: id))
        #expect(failed.state == .dead)
        #expect(failed.lastError?.hasPrefix("the session's audio failed for good: cannot read mic.opus") == true, "\(failed.lastError ?? "")")
        #expect(try await queue.heartbeat(try #require(join.lease), leaseSeconds: 30, progress: 50) == .leaseLost)
        #expect(try await queue.heartbeat(try #require(chunk.lease), leaseSeconds: 30, progress: 10) == .cancel)
    }

    @Test func thePartAChunkJobMakesNamesItsFolderAndArguments() {
        #expect(ChunkPart(chunk: Job.sessionAudioChunk) == .audio)
        #expect(ChunkPart(chunk: 3) == .video(3))
        #expect(ChunkPart.audio.folderName == "audio" && ChunkPart.audio.arguments == ["--audio"])
        #expect(ChunkPart.video(3).folderName == "chunk-00003" && ChunkPart.video(3).arguments == ["--index", "3"])
        #expect(ComposeChild.ChunksLine(parsing: ComposeChild.ChunksLine(count: 4, audio: true).text) == ComposeChild.ChunksLine(count: 4, audio: true))
        // A plan of a version before the audio job says no more than its count: its join mixes the audio.
        #expect(ComposeChild.ChunksLine(parsing: #"{"event":"chunks","count":4}"#)?.audio == nil)
    }
}
