import ArgumentParser
import Foundation
import StageMixQueue

extension StageMix {
    /// `stagemix jobs`: look at and steer queued jobs.
    struct Jobs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, show, cancel or retry compose jobs.",
            subcommands: [List.self, Show.self, Cancel.self, Retry.self]
        )

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Jobs, newest first: state, attempts, progress, last error.")
            @OptionGroup var queue: QueueOption
            @Option var limit: Int = 50

            func run() async throws {
                let list = try await queue.url.withQueue { try await $0.list(limit: limit) }
                print(JobReport.table(list))
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Everything about one job; a chunked composition's progress as a whole, and with --chunks each chunk's.")
            @Argument var id: String
            @Flag(help: "A chunked composition: one line per chunk.") var chunks = false
            @OptionGroup var queue: QueueOption

            func run() async throws {
                let found = try await queue.url.withQueue { queue -> (Job, [Job], Job?)? in
                    guard let job = try await queue.job(id: id) else { return nil }
                    return (job, try await queue.chunks(of: job.id), try await queue.sessionAudio(of: job.id))
                }
                guard let (job, chunkJobs, audio) = found else {
                    try? FileHandle.standardError.write(contentsOf: Data("no job \(id)\n".utf8))
                    throw ExitCode.failure
                }
                print(JobReport.detail(job))
                if let summary = JobReport.chunkSummary(job, chunks: chunkJobs) { print(summary) }
                if let audio { print(JobReport.sessionAudioLine(audio)) }
                if let parent = job.parentID {
                    print(job.isSessionAudio ? "audio:        the session's audio of composition \(parent)" : "chunk:        \(job.chunk ?? 0) of composition \(parent)")
                }
                if chunks, !chunkJobs.isEmpty { print(JobReport.chunkTable(chunkJobs)) }
            }
        }

        struct Cancel: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Cancel a job: at once if queued; a running one is stopped by its worker.")
            @Argument var id: String
            @OptionGroup var queue: QueueOption

            func run() async throws {
                // The composition, also when `id` is one of its chunks: a cancel acts on the whole.
                let (action, composition) = try await queue.url.withQueue { queue -> (Job.CancelAction, Job?) in
                    let action = try await queue.cancel(id: id)
                    let job = try await queue.job(id: id)
                    guard let parent = job?.parentID else { return (action, job) }
                    return (action, try await queue.job(id: parent))
                }
                // A chunked composition cancelled at once (no phase running) leaves its work to nobody else.
                if action == .cancelled { composition?.removeEndedChunkWork() }
                switch action {
                case .cancelled: print("cancelled \(id)")
                case .flagged: print("cancelling \(id): its worker stops it within a second or two")
                case .alreadyFinished: print("\(id) has already finished")
                }
            }
        }

        struct Retry: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Run a dead, cancelled or failed job again now.")
            @Argument var id: String
            @OptionGroup var queue: QueueOption

            func run() async throws {
                let action = try await queue.url.withQueue { try await $0.retry(id: id) }
                switch action {
                case .requeued: print("queued \(id) again")
                case .notRetryable:
                    try? FileHandle.standardError.write(contentsOf: Data("\(id) is queued, running or succeeded: nothing to retry\n".utf8))
                    throw ExitCode.failure
                }
            }
        }
    }
}
