import Foundation

/// A command as swift-argument-parser itself describes it (`--experimental-dump-help`, its tool-info
/// JSON): its subcommands and every argument, with the names, whether a value follows, and whether
/// it must be given. Read from the built binaries, so it is the parser's own account, not the help text's.
struct CommandTree {
    struct Argument {
        enum Kind: String { case positional, option, flag }
        var kind: Kind
        /// `--out`, `-o`; none for a positional.
        var names: [String]
        var isOptional: Bool
        var isRepeating: Bool
        var valueName: String?
    }

    var name: String
    var subcommands: [CommandTree]
    var arguments: [Argument]

    init(json: [String: Any]) {
        name = json["commandName"] as? String ?? ""
        subcommands = (json["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init(json:))
        arguments = (json["arguments"] as? [[String: Any]] ?? []).compactMap { argument in
            guard let kind = (argument["kind"] as? String).flatMap(Argument.Kind.init(rawValue:)) else { return nil }
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String == "short" ? "-" : "--") + text
            }
            return Argument(kind: kind, names: names, isOptional: argument["isOptional"] as? Bool ?? true,
                            isRepeating: argument["isRepeating"] as? Bool ?? false, valueName: argument["valueName"] as? String)
        }
    }

    /// `stagemix`'s tree, with the service commands (`serve`, `worker`, `enqueue`, `jobs`, `token`) as
    /// `stagemix-service` defines them: `stagemix` only lists them and runs that binary in its place.
    static func load() throws -> CommandTree {
        let compose = CommandLineTests.executable
        let service = compose.deletingLastPathComponent().appendingPathComponent("stagemix-service")
        var root = try dump(compose)
        let services = try dump(service).subcommands
        root.subcommands = root.subcommands.map { entry in services.first { $0.name == entry.name } ?? entry }
        return root
    }

    private static func dump(_ executable: URL) throws -> CommandTree {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--experimental-dump-help"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let command = json["command"] as? [String: Any] else {
            throw TestFailure("\(executable.path) --experimental-dump-help gave no command")
        }
        return CommandTree(json: command)
    }

    func subcommand(_ name: String) -> CommandTree? { subcommands.first { $0.name == name } }

    func argument(named name: String) -> Argument? { arguments.first { $0.names.contains(name) } }

    /// Every command path under this one (`["import", "twilio"]`), this one's own (`[]`) first.
    var paths: [[String]] {
        [[]] + subcommands.flatMap { sub in sub.paths.map { [sub.name] + $0 } }
    }

    /// What is wrong with `words` (what follows the command's path) as arguments of this command; nil
    /// when the parser would take them: every option known, a value after each that takes one, the
    /// positionals neither too many nor too few, every option it needs given.
    func problem(with words: [String]) -> String? {
        var positionals = 0
        var given: Set<String> = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), word.count > 1, Double(word) == nil else {
                positionals += 1
                continue
            }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard let argument = argument(named: name) else { return "\(name) is not an option of \(self.name)" }
            given.insert(argument.names.first ?? name)
            if argument.kind == .option && !word.contains("=") {
                guard index < words.count else { return "\(name) needs a value" }
                index += 1
            }
        }
        let declared = arguments.filter { $0.kind == .positional }
        if positionals > declared.count && !declared.contains(where: \.isRepeating) {
            return "\(positionals) arguments where \(self.name) takes \(declared.count)"
        }
        if positionals < declared.filter({ !$0.isOptional }).count { return "too few arguments for \(self.name)" }
        for argument in arguments where argument.kind == .option && !argument.isOptional && !given.contains(argument.names.first ?? "") {
            return "\(self.name) needs \(argument.names.first ?? "?")"
        }
        return nil
    }
}
