import Foundation
import Testing
import StageMixTestSupport

/// The service quickstarts (README's and docs/service.md's curl walk-through) run from a clone: what
/// they write (the keys file, the secret, and what `serve` makes: its SQLite queue and the published
/// compositions) must be outside the clone or ignored by git, so that `git add -A` never commits a
/// secret (issue 32).
@Suite("Service quickstarts")
struct ServiceQuickstartTests {
    @Test(arguments: ["README.md", "docs/service.md"])
    func whatTheQuickstartWritesStaysOutOfGit(file: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
        let blocks = DocumentedCommand.codeBlocks(text).filter { block in
            DocumentedCommand.commands(in: block, file: file).contains { $0.words.first == "serve" && !$0.isSynopsis }
        }
        #expect(!blocks.isEmpty, "no quickstart with `stagemix serve` in \(file)")
        let home = NSHomeDirectory()
        var written: [String] = []
        for block in blocks {
            let commands = DocumentedCommand.commands(in: block, file: file)
            guard let serve = commands.first(where: { $0.words.first == "serve" }) else { continue }
            func value(_ option: String) -> String? {
                serve.words.firstIndex(of: option).flatMap { $0 + 1 < serve.words.count ? serve.expanding(serve.words[$0 + 1], home: home) : nil }
            }
            let outputRoot = value("--output-root") ?? "./compositions"
            written += [
                value("--keys") ?? "",
                String((value("--queue") ?? "sqlite:./stagemix-queue.sqlite").dropFirst("sqlite:".count)),
                outputRoot, value("--inputs-root") ?? "\(outputRoot)/.stagemix-inputs",
            ]
            // What the block's shell lines write: `> FILE`.
            for (_, line) in block {
                let words = DocumentedCommand.shellWords(line)
                for (index, word) in words.enumerated() where word.text == ">" && index + 1 < words.count {
                    written.append(serve.expanding(words[index + 1].text, home: home))
                }
            }
        }
        #expect(written.contains { $0.hasSuffix(".secret") }, "\(written)")
        for path in written where !path.isEmpty {
            let url = URL(fileURLWithPath: path, relativeTo: Repository.root).standardizedFileURL
            guard url.path.hasPrefix(Repository.root.standardizedFileURL.path + "/") else { continue }
            #expect(Self.ignoredByGit(url), "\(file): the quickstart writes \(path) into the clone, where git would commit it")
        }
    }

    static func ignoredByGit(_ url: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", Repository.root.path, "check-ignore", "-q", "--no-index", url.path]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
