import ArgumentParser

/// `stagemix-service`: the commands of `stagemix` that need the queue, the HTTP server or TLS.
/// `stagemix serve|worker|enqueue|jobs|token` runs this binary, which sits beside `stagemix`.
@main
struct StageMix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stagemix",
        abstract: "StageMix's service commands: the queue, the worker and the HTTP API.",
        subcommands: [Serve.self, Token.self, Enqueue.self, Worker.self, Jobs.self]
    )
}
