import Foundation

/// How a ``Worker`` runs jobs.
public struct WorkerConfiguration: Sendable {
    /// Unique per worker process; names the leases it holds.
    public var workerID: String
    /// Jobs run at once.
    public var concurrency: Int
    /// After SIGTERM, how long a job in hand may go on before its child is killed and the job released.
    public var shutdownGrace: Duration
    /// A lease not renewed for this long is taken to be lost, and the job rescued.
    public var leaseSeconds: Double
    /// How often a running attempt renews its lease, reports progress, and looks for cancellation.
    public var heartbeatSeconds: Double
    /// Longest an idle worker waits before looking for work again (PostgreSQL also wakes it by NOTIFY).
    public var pollInterval: Duration
    /// The compose command: executable (looked up in PATH) and arguments before the job's own.
    public var composeCommand: [String]
    /// How often an idle worker looks for the work of chunked compositions that ended unseen (``Worker/sweepEndedWork()``).
    public var sweepInterval: Duration = .seconds(300)

    public init(
        workerID: String = WorkerConfiguration.defaultWorkerID(),
        concurrency: Int = 1,
        shutdownGrace: Duration = .seconds(30),
        leaseSeconds: Double = 30,
        heartbeatSeconds: Double = 5,
        pollInterval: Duration = .seconds(1),
        composeCommand: [String] = WorkerConfiguration.defaultComposeCommand()
    ) {
        self.workerID = workerID
        self.concurrency = concurrency
        self.shutdownGrace = shutdownGrace
        self.leaseSeconds = leaseSeconds
        self.heartbeatSeconds = heartbeatSeconds
        self.pollInterval = pollInterval
        self.composeCommand = composeCommand
    }

    /// What runs one chunk of a chunked composition: the compose command's `compose-chunk`; nil when
    /// the compose command is not a `stagemix compose`.
    public var chunkCommand: [String]? {
        composeCommand.last == "compose" ? composeCommand.dropLast() + ["compose-chunk"] : nil
    }

    public static func defaultWorkerID() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UInt32.random(in: 0...UInt32.max) & 0xffff)"
    }

    /// `stagemix compose`, with the `stagemix` built beside this executable (`stagemix-service`, whose
    /// worker runs the compose binary that has the media libraries); this executable itself if there is none.
    public static func defaultComposeCommand() -> [String] {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let sibling = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("stagemix").path
        return [FileManager.default.isExecutableFile(atPath: sibling) ? sibling : executable, "compose"]
    }
}
