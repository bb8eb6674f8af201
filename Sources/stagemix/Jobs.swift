import ArgumentParser
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
                let jobs = try await queue.url.open()
                let list = try await jobs.list(limit: limit)
                await jobs.close()
                print(JobReport.table(list))
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Everything about one job.")
            @Argument var id: String
            @OptionGroup var queue: QueueOption

            func run() async throws {
                let jobs = try await queue.url.open()
                let job = try await jobs.job(id: id)
                await jobs.close()
                guard let job else { throw ValidationError("no job \(id)") }
                print(JobReport.detail(job))
            }
        }

        struct Cancel: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Cancel a job: at once if queued; a running one is stopped by its worker.")
            @Argument var id: String
            @OptionGroup var queue: QueueOption

            func run() async throws {
                let jobs = try await queue.url.open()
                let action = try await jobs.cancel(id: id)
                await jobs.close()
                switch action {
                case .cancelled: print("cancelled \(id)")
                case .flagged: print("cancelling \(id): its worker stops it at the next heartbeat")
                case .alreadyFinished: print("\(id) has already finished")
                }
            }
        }

        struct Retry: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Run a dead, cancelled or failed job again now.")
            @Argument var id: String
            @OptionGroup var queue: QueueOption

            func run() async throws {
                let jobs = try await queue.url.open()
                let action = try await jobs.retry(id: id)
                await jobs.close()
                switch action {
                case .requeued: print("queued \(id) again")
                case .notRetryable: throw ValidationError("\(id) is queued, running or succeeded: nothing to retry")
                }
            }
        }
    }
}
