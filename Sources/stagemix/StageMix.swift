import ArgumentParser

/// The `stagemix` command: composes recorded livestream captures.
@main
struct StageMix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stagemix",
        abstract: "Compose recorded livestream captures into HLS, with stage timeline and billing reports.",
        subcommands: [Plan.self, Compose.self, Preview.self, Synth.self, Probe.self, Enqueue.self, Worker.self, Jobs.self]
    )
}
