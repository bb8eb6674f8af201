import Foundation
import Testing
import StageMixTestSupport

/// `stagemix compose` on every capture `scripts/damaged-corpus` writes (docs/fuzzing.md): broken
/// manifests, damaged media, hostile files. Each must compose or fail cleanly, and leave no trace.
@Suite("damaged captures", .serialized)
struct DamagedCorpusTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// A case composes 3 s of video in well under a second, the largest manifest in a few; this
    /// catches a hang, not a machine busy with the other suites.
    static let timeoutSeconds = 20.0
    static let memoryLimitBytes = 400 << 20
    /// Killed at this size while running, so that a runaway cannot take the machine down.
    static let memoryGuardBytes = 1536 << 20

    /// Cases that fail today because the fix belongs to another change of issue 9, with why.
    /// Their failures are recorded as known issues; once a case passes, drop it from here.
    static let knownIssues: [String: String] = [:]

    /// What a case's `expect.json` says.
    struct Expectation: Decodable {
        var exit: [Int32]
        var about: String
        var names: [String]?
    }

    @Test func everyCaseComposesOrFailsCleanly() throws {
        let scratch = ScratchDirectory("corpus")
        defer { scratch.remove() }
        let root = scratch.file("corpus")
        let corpus = root.appendingPathComponent("corpus")
        try Self.generate(into: corpus)
        let cases = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix("_") }.sorted()
        #expect(cases.count >= 100, "the generator wrote \(cases.count) cases")

        var fixed: [String] = []
        var heaviest = (name: "", bytes: 0), slowest = (name: "", seconds: 0.0)
        for name in cases {
            let (problems, run) = try Self.check(case: corpus.appendingPathComponent(name), scratch: root.appendingPathComponent("runs/\(name)"))
            if run.maxResidentBytes > heaviest.bytes { heaviest = (name, run.maxResidentBytes) }
            if run.seconds > slowest.seconds, run.ending != .timedOut { slowest = (name, run.seconds) }
            if let why = Self.knownIssues[name] {
                if problems.isEmpty { fixed.append(name) }
                withKnownIssue("\(name): \(why)", isIntermittent: true) {
                    for problem in problems { Issue.record("\(name): \(problem)") }
                }
            } else {
                for problem in problems { Issue.record("\(name): \(problem)") }
            }
        }
        print("damaged captures: \(cases.count) cases; peak memory \(heaviest.bytes >> 20) MB (\(heaviest.name)); "
              + "slowest that finished \(String(format: "%.1f", slowest.seconds)) s (\(slowest.name))")
        if !fixed.isEmpty { print("damaged captures: these known issues did not occur this time (fixed?): \(fixed)") }
        #expect(Set(Self.knownIssues.keys).isSubset(of: cases), "every known issue names a case")
    }

    static func generate(into corpus: URL) throws {
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", repository.appendingPathComponent("scripts/damaged-corpus").path, corpus.path]
        try generator.run()
        generator.waitUntilExit()
        try #require(generator.terminationStatus == 0, "scripts/damaged-corpus failed")
    }

    /// Runs compose on one case: what went wrong (empty when nothing did), and the run.
    static func check(case directory: URL, scratch: URL) throws -> (problems: [String], run: MeasuredRun) {
        let expectation = try JSONDecoder().decode(Expectation.self, from: Data(contentsOf: directory.appendingPathComponent("expect.json")))
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let out = scratch.appendingPathComponent("output/out")
        try FileManager.default.createDirectory(at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
        let before = DirectorySnapshot(of: directory)
        let run = try MeasuredRun.run(CommandLineTests.executable,
                                      ["compose", directory.path, "--out", out.path, "--resolution", "320x180", "--fps", "10"],
                                      timeout: timeoutSeconds, killAboveBytes: memoryGuardBytes, scratch: scratch)
        var problems: [String] = []
        let stderrStart = String(run.stderr.prefix(600))
        switch run.ending {
        case .exited(let code) where expectation.exit.contains(code):
            break
        default:
            problems.append("\(run.ending) after \(String(format: "%.1f", run.seconds)) s, expected exit \(expectation.exit) (\(expectation.about)); stderr: \(stderrStart)")
        }
        if run.ending == .exited(65) {
            let names = expectation.names ?? ["session.json", "$", "media/", "TR_"]
            if !names.contains(where: run.stderr.contains) {
                problems.append("exit 65 without naming any of \(names); stderr: \(stderrStart)")
            }
        }
        if run.ending == .exited(0) {
            for file in ["hls/index.m3u8", "report.json"] where !FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path) {
                problems.append("exit 0 without \(file)")
            }
        }
        let changed = DirectorySnapshot(of: directory).changes(since: before)
        if !changed.isEmpty { problems.append("changed inside the capture: \(changed)") }
        let beside = (try? FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)) ?? []
        // A run killed here had no chance to clean up; its staging directory says nothing more.
        let stray = beside.filter { $0 != "out" }
        if !stray.isEmpty, run.ending != .timedOut, run.ending != .killedForMemory {
            problems.append("left beside the output: \(stray)")
        }
        if run.ending != .exited(0), beside.contains("out") { problems.append("an output directory after \(run.ending)") }
        if run.maxResidentBytes > memoryLimitBytes {
            problems.append("peak memory \(run.maxResidentBytes >> 20) MB, over \(memoryLimitBytes >> 20) MB")
        }
        try? FileManager.default.removeItem(at: scratch)
        return (problems, run)
    }
}
