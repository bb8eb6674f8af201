import Foundation
import Testing
import StageMixTestSupport

/// Every `stagemix ...` line README.md and docs/*.md show in a code block, against the program
/// (issue 32: `preview --out`, which is `-o`, had drifted into docs/storage.md).
///
/// What is checked, and why so: every line, synopsis or not, is read against the argument parser's
/// own description of the built binaries (`--experimental-dump-help`): its command must exist and
/// every option it names must be one of that command's. A line to be typed as it stands is checked
/// as the parser would take it (a value after each option that takes one, positionals neither too
/// many nor too few, required options given), and the cheap ones (`plan`, `probe`, `preview`,
/// `compose`, `enqueue`, `import`, `token`) are then run for real, in a scratch folder that holds
/// `Samples`, with a scratch HOME and object storage pointed at a closed port: such a run must get
/// past the parser and the options' checks (no 64, no internal failure). Lines that serve or work
/// (`serve`, `worker`) would run until stopped and bind documented ports, and `jobs` needs a queue
/// holding jobs: those are checked against the parser only. A line naming an absolute path outside
/// the scratch folder is not run, so that the test writes nowhere but scratch.
@Suite("Documented command lines", .serialized)
struct DocumentedCommandTests {
    static var files: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    static var commands: [DocumentedCommand] {
        get throws { try DocumentedCommand.all(in: Repository.root, files: files) }
    }

    @Test func everyDocumentedCommandLineParses() throws {
        let tree = try CommandTree.load()
        let commands = try Self.commands
        // The extraction itself must keep finding what the docs hold.
        #expect(commands.count >= 30, "\(commands.count) command lines found")
        #expect(commands.contains { $0.file == "docs/storage.md" && $0.words.first == "preview" && !$0.isSynopsis })
        #expect(commands.contains { $0.file == "docs/queue.md" && $0.words.first == "worker" && $0.isSynopsis })
        for command in commands {
            if let problem = Self.problem(command, tree: tree) { Issue.record("\(command)\n  \(problem)") }
        }
    }

    /// What the parser would say against `command`, nil if nothing.
    static func problem(_ command: DocumentedCommand, tree: CommandTree) -> String? {
        var rest = command.words[...]
        guard command.isSynopsis else {
            var node = tree
            while let word = rest.first, let sub = node.subcommand(word) {
                node = sub
                rest = rest.dropFirst()
            }
            guard node.subcommands.isEmpty, node.name != tree.name else { return "names no command that runs" }
            return node.problem(with: Array(rest))
        }
        // A synopsis: its command (or each of `a|b`), and every option it mentions.
        var candidates = [tree]
        while let word = rest.first, candidates.count == 1 {
            let names = word.split(separator: "|").map(String.init)
            let next = names.compactMap { candidates[0].subcommand($0) }
            guard !next.isEmpty, next.count == names.count else { break }
            candidates = next
            rest = rest.dropFirst()
        }
        if candidates.contains(where: { $0.name == tree.name }) { return "names no command" }
        let separators = CharacterSet(charactersIn: "[]|(),= ")
        let options = rest.joined(separator: " ").components(separatedBy: separators).filter { piece in
            piece.hasPrefix("-") && piece.dropFirst().first.map { $0 == "-" || $0.isLetter } == true
        }
        for option in options where !candidates.contains(where: { $0.argument(named: option) != nil }) {
            return "\(option) is not an option of \(candidates.map(\.name).joined(separator: " or "))"
        }
        return nil
    }

    /// docs/edits.md said `preview --at` was on the output's clock; the program and its help take session time.
    @Test func docsGivePreviewTheClockItsHelpGives() throws {
        let help = try CommandLineTests.run(["preview", "--help"]).stdout
        #expect(help.contains("Session time"), "\(help)")
        let edits = try String(contentsOf: Repository.root.appendingPathComponent("docs/edits.md"), encoding: .utf8)
        let items = edits.components(separatedBy: "\n  - ").filter { $0.contains("`preview --at`") }
        #expect(!items.isEmpty)
        for item in items {
            let said = item.components(separatedBy: "\n- ").first ?? item
            #expect(said.contains("session time") && !said.contains("output's clock"), "docs/edits.md: \(said)")
        }
    }

    static let runnable: Set<String> = ["plan", "probe", "preview", "compose", "enqueue", "import", "token"]

    @Test func theCheapDocumentedCommandsRunPastTheParser() throws {
        let commands = try Self.commands.filter { !$0.isSynopsis && Self.runnable.contains($0.words.first ?? "") }
        #expect(commands.count >= 8, "\(commands.map(\.description))")
        var ran = 0
        for command in commands {
            let scratch = ScratchDirectory("docs")
            defer { scratch.remove() }
            let work = scratch.file("work"), home = scratch.file("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: work.appendingPathComponent("Samples"), withDestinationURL: Repository.root.appendingPathComponent("Samples"))
            let words = command.words.map { command.expanding($0, home: home.path) }
            // Nothing is written but in scratch: a line naming a path elsewhere is left to the parser check.
            if words.contains(where: { $0.hasPrefix("/") && !$0.hasPrefix(scratch.url.path) }) { continue }
            try prepare(words, in: work)
            var environment = [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path,
                "AWS_ACCESS_KEY_ID": "AKIDDOCSEXAMPLE", "AWS_SECRET_ACCESS_KEY": "docs-example-secret",
                "AWS_ENDPOINT_URL": "http://127.0.0.1:9", "AWS_MAX_ATTEMPTS": "1",
            ]
            environment.merge(command.environment.mapValues { command.expanding($0, home: home.path) }) { $1 }
            let result = try Self.run(words, in: work, environment: environment)
            ran += 1
            let said = "\(command)\n  exit \(result.status): \(result.stderr.suffix(600))"
            #expect(![64, 70].contains(result.status) && result.status < 128, "\(said)")
            #expect(!result.stderr.contains("Usage:") && !result.stderr.contains("internal error"), "\(said)")
        }
        #expect(ran >= 7, "\(ran) lines run")
    }

    /// What the line's block made before it, made here: a secret file for `token`. And for `compose`
    /// into a folder, a folder StageMix did not write there, which it refuses (65) once every option
    /// and the plan are checked, before encoding a frame: the check without the cost.
    func prepare(_ words: [String], in work: URL) throws {
        func value(_ option: String) -> URL? {
            guard let index = words.firstIndex(of: option), index + 1 < words.count, !words[index + 1].hasPrefix("s3://") else { return nil }
            return URL(fileURLWithPath: words[index + 1], relativeTo: work)
        }
        if words.first == "token", let secret = value("--secret-file"), !FileManager.default.fileExists(atPath: secret.path) {
            try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("0123456789abcdef0123456789abcdef".utf8).write(to: secret)
        }
        if words.first == "compose", let out = value("--out") {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data("not StageMix's".utf8).write(to: out.appendingPathComponent("keep.txt"))
        }
    }

    static func run(_ arguments: [String], in directory: URL, environment: [String: String]) throws -> CommandLineTests.Run {
        try CommandLineTests.run(arguments, environment: environment, in: directory)
    }
}
