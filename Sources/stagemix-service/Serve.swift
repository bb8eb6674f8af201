import ArgumentParser
import Foundation
import StageMixCommandLine
import StageMixQueue
import StageMixService

extension StageMix {
    /// `stagemix serve`: the HTTP API, webhooks, and (with --workers) composing, in one process.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the HTTP API: compositions, plans, signed webhooks; with --workers, compose too.",
            discussion: """
                With the default SQLite queue and --workers N this is a whole service on one machine. With a \
                PostgreSQL queue, any number of serve and worker processes on many machines share the work. \
                SIGTERM/SIGINT stop it gracefully; SIGHUP re-reads the keys file. See docs/service.md.
                """)

        @Option(help: "HOST:PORT to listen on (port 0: any free port, logged at start).") var listen: String = "127.0.0.1:8080"
        @OptionGroup var queue: QueueOption
        @Option(name: .customLong("capture-root"), help: "A folder captures are read from (repeatable); requests name captures relative to one.")
        var captureRoots: [String] = []
        @Option(name: .customLong("allow-storage"),
                help: "An s3://bucket/prefix captures may be read from and outputs written to (repeatable; default none).")
        var allowStorage: [String] = []
        @Option(help: "JSON file {\"keys\": {\"KEY\": \"SECRET\"}}: the API keys and their secrets.") var keys: String
        @Option(help: "Compose jobs this process runs at once (0: leave composing to `stagemix worker`s).") var workers: Int = 1
        @Option(name: .customLong("output-root"),
                help: "Compositions are published as OUTPUT_ROOT/<id>: a folder, or an s3://bucket/prefix within --allow-storage.")
        var outputRoot: String = "./compositions"
        @Option(name: .customLong("inputs-root"),
                help: "A local folder for the documents requests give inline (default: OUTPUT_ROOT/.stagemix-inputs; ./stagemix-inputs for a bucket).")
        var inputsRoot: String?
        @Option(name: .customLong("public-url"),
                help: "The URL clients reach this service at (https://stagemix.example.com behind a TLS proxy), for the absolute URLs the Twilio-shaped routes give out; default http://<Host of the request>.")
        var publicURL: String?
        @Flag(name: .customLong("allow-private-callbacks"), help: "Allow webhooks to loopback and private addresses (tests, private networks).")
        var allowPrivateCallbacks = false
        @Option(name: .customLong("max-attempts"), help: "Attempts before a composition fails for good.") var maxAttempts: Int = 3
        @Option(name: .customLong("webhook-retry-base"), help: "Seconds before the first webhook retry; doubles up to an hour.")
        var webhookRetryBase: Double = 5
        @Option(name: .customLong("shutdown-grace"),
                help: "Seconds the jobs in hand may go on after SIGTERM or SIGINT before they are stopped and released for another worker.")
        var shutdownGrace: Double = 30
        @Option(name: .customLong("janus-recordings"),
                help: "Janus's rec_dir as this machine sees it: takes Janus's event handler at POST /v1/janus/events and composes each room that ends (docs/import.md).")
        var janusRecordings: String?
        @Option(name: .customLong("janus-callback-url"), help: "Where the webhooks of the Janus rooms' compositions go (default: none).")
        var janusCallbackURL: String?
        @Option(name: .customLong("janus-idle-seconds"), help: "Seconds a Janus room stays open after its last publisher stopped.")
        var janusIdleSeconds: Double = 60
        @Option(name: .customLong("janus-keep-days"),
                help: "Days a Janus room's events stay in the queue's database once it is done (its capture keeps them).")
        var janusKeepDays: Double = 7
        @Option(name: .customLong("janus-composition"),
                help: "A JSON file {\"layout\": ..., \"options\": {...}} as POST /v1/compositions takes them, for every Janus room's composition.")
        var janusComposition: String?
        /// For tests: a capture folder copied as what the importer makes of each room.
        @Option(name: .customLong("janus-import-stand-in"), help: .hidden) var janusImportStandIn: String?
        @Option(name: .customLong("lease-seconds"), help: .hidden) var leaseSeconds: Double = 30
        @Option(name: .customLong("heartbeat-seconds"), help: .hidden) var heartbeatSeconds: Double = 5
        /// For tests: a stand-in for `stagemix compose`, split on spaces.
        @Option(name: .customLong("compose-command"), help: .hidden) var composeCommand: String?

        var address: (host: String, port: Int) {
            get throws {
                guard let colon = listen.lastIndex(of: ":"), colon > listen.startIndex,
                      let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
                    throw ValidationError("--listen must be HOST:PORT, such as 127.0.0.1:8080, not \(listen)")
                }
                return (String(listen[..<colon]), port)
            }
        }

        func validate() throws {
            _ = try address
            if captureRoots.isEmpty && allowStorage.isEmpty { throw ValidationError("give at least one --capture-root or --allow-storage") }
            if let publicURL {
                guard let url = URLComponents(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                      url.query == nil, url.fragment == nil, url.user == nil else {
                    throw ValidationError("--public-url must be an http or https URL with a host and no query, such as https://stagemix.example.com, not \(publicURL)")
                }
            }
            if !(0...64).contains(workers) { throw ValidationError("--workers must be between 0 and 64") }
            if !(1...100).contains(maxAttempts) { throw ValidationError("--max-attempts must be between 1 and 100") }
            if !(webhookRetryBase > 0 && webhookRetryBase <= 3600) { throw ValidationError("--webhook-retry-base must be between 0 and 3600 seconds") }
            if !(0...3600).contains(shutdownGrace) { throw ValidationError("--shutdown-grace must be between 0 and 3600 seconds") }
            if !(janusIdleSeconds >= 0 && janusIdleSeconds <= 86400) { throw ValidationError("--janus-idle-seconds must be between 0 and 86400") }
            if !(janusKeepDays >= 0 && janusKeepDays <= 3650) { throw ValidationError("--janus-keep-days must be between 0 and 3650") }
            if janusRecordings == nil && (janusCallbackURL != nil || janusComposition != nil || janusImportStandIn != nil) {
                throw ValidationError("--janus-callback-url, --janus-composition and --janus-import-stand-in need --janus-recordings")
            }
            if let janusRecordings {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: janusRecordings, isDirectory: &isFolder), isFolder.boolValue else {
                    throw ValidationError("--janus-recordings \(janusRecordings): no such folder")
                }
            }
            if heartbeatSeconds <= 0 || leaseSeconds <= heartbeatSeconds {
                throw ValidationError("--lease-seconds must be longer than --heartbeat-seconds")
            }
        }

        func run() async throws {
            let (host, port) = try address
            var worker = WorkerConfiguration(shutdownGrace: .milliseconds(Int(shutdownGrace * 1000)), leaseSeconds: leaseSeconds,
                                             heartbeatSeconds: heartbeatSeconds, pollInterval: .milliseconds(250))
            if let composeCommand { worker.composeCommand = composeCommand.split(separator: " ").map(String.init) }
            let configuration = ServiceConfiguration(
                host: host, port: port, queue: try queue.url, captureRoots: captureRoots, allowStorage: allowStorage, keysPath: keys,
                workers: workers, outputRoot: outputRoot, inputsRoot: inputsRoot, publicURL: publicURL, allowPrivateCallbacks: allowPrivateCallbacks,
                maxAttempts: maxAttempts,
                webhookRetry: WebhookRetry(baseSeconds: webhookRetryBase),
                worker: worker,
                janus: janusRecordings.map {
                    JanusConfiguration(recordings: URL(fileURLWithPath: $0).standardizedFileURL, callbackURL: janusCallbackURL,
                                       idleSeconds: janusIdleSeconds, keepSeconds: janusKeepDays * 86400, composition: janusComposition.map { URL(fileURLWithPath: $0) },
                                       importStandIn: janusImportStandIn.map { URL(fileURLWithPath: $0) })
                })
            do {
                try await StageMixServer.run(configuration)
            } catch let error as ServiceSetupError {
                try? FileHandle.standardError.write(contentsOf: Data("stagemix serve: \(error)\n".utf8))
                throw ExitCode.usageError
            } catch let error as QueueError {
                try? FileHandle.standardError.write(contentsOf: Data("stagemix serve: \(error)\n".utf8))
                throw ExitCode.internalFailure
            }
        }
    }
}
