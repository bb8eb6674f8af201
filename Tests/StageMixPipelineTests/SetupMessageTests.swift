import Foundation
import Testing
import StageMixTestSupport

/// Messages about this machine's set-up and the commands' own help (issue 32): a misspelt profile
/// is said as one, an unreachable store in plain words, help text without stray backslashes, and
/// `compose --help` with every exit status README gives.
@Suite("Set-up messages and help", .serialized)
struct SetupMessageTests {
    @Test func aMisspeltProfileIsNamedWithTheFilesLookedInNotAsAnInvalidCapture() throws {
        let home = ScratchDirectory("home")
        defer { home.remove() }
        home.write("[recorder]\naws_access_key_id = AKIDRECORDER\naws_secret_access_key = recorder-secret\n", to: ".aws/credentials")
        let result = try CommandLineTests.run(["plan", "s3://recordings/panel-17"], environment: [
            "HOME": home.url.path, "AWS_PROFILE": "recorderr", "AWS_ENDPOINT_URL": "http://127.0.0.1:9", "AWS_MAX_ATTEMPTS": "1",
        ])
        // The status of the other storage set-up errors (README: 65 covers wrong storage credentials).
        #expect(result.status == 65, "\(result.stderr)")
        let credentials = home.url.appendingPathComponent(".aws/credentials").path
        let config = home.url.appendingPathComponent(".aws/config").path
        #expect(result.stderr.contains("AWS_PROFILE recorderr: profile not found in \(credentials) (profiles: recorder) or \(config) (no such file)"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("invalid capture") && !result.stderr.contains("session.json"), "\(result.stderr)")
        #expect(!result.stderr.contains("recorder-secret"))
    }

    @Test func anUnreachableStoreSaysRefusedInBalancedBrackets() throws {
        let home = ScratchDirectory("home")
        defer { home.remove() }
        let result = try CommandLineTests.run(["plan", "s3://captures/panel"], environment: [
            "HOME": home.url.path, "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "example-secret",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9", "AWS_MAX_ATTEMPTS": "1",
        ])
        #expect(result.status == 75, "\(result.stderr)")
        let line = result.stderr.split(separator: "\n").first { $0.contains("Unreachable") }.map(String.init) ?? ""
        #expect(line.contains("s3://captures/panel/session.json: Unreachable: connection refused (errno 111), connecting to http://127.0.0.1:9"),
                "\(result.stderr)")
        #expect(!line.contains("reset") && !line.contains("HTTP 0"), "\(line)")
        #expect(line.filter { $0 == "(" }.count == line.filter { $0 == ")" }.count, "\(line)")
    }

    /// Every command's and subcommand's `--help`, those of `stagemix-service` included.
    @Test func noHelpTextPrintsAStrayBackslash() throws {
        let tree = try CommandTree.load()
        let paths = tree.paths.filter { !$0.isEmpty }
        #expect(paths.contains(["serve"]) && paths.contains(["import", "twilio"]))
        for path in paths {
            let help = try CommandLineTests.run(path + ["--help"])
            #expect(help.status == 0, "\(path)")
            #expect(!help.stdout.contains("\\"), "stagemix \(path.joined(separator: " ")) --help:\n\(help.stdout)")
        }
    }

    @Test func composeHelpListsEveryExitStatusREADMEGives() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let sentence = try #require(readme.components(separatedBy: "Exit codes: ").dropFirst().first?.components(separatedBy: "\n\n").first)
        let statuses = Set(sentence.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) })
        #expect(statuses.isSuperset(of: [0, 64, 65, 70, 75, 130, 143]), "\(statuses)")
        let help = try CommandLineTests.run(["compose", "--help"]).stdout
        let listed = Set(help.components(separatedBy: "Exit codes:").dropFirst().first?
            .split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } ?? [])
        #expect(statuses.isSubset(of: listed), "README gives \(statuses.sorted()); compose --help lists \(listed.sorted())")
    }
}
