import ArgumentParser

/// The `stagemix` command: composes recorded livestream captures.
@main
struct StageMix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stagemix",
        abstract: "Compose recorded livestream captures into HLS, with stage timeline and billing reports.",
        subcommands: [Plan.self, Compose.self, ComposeChunk.self, Preview.self, Synth.self, Probe.self, Import.self, Replay.self,
                      Serve.self, Enqueue.self, Worker.self, Jobs.self, Token.self]
    )

    static func main() async {
        ServiceCommands.execIfServiceCommand()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
