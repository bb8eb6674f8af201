import ArgumentParser
import Foundation
import StageMixOptions
#if canImport(Glibc)
import Glibc
#endif

/// The commands that need the queue, the HTTP server or TLS live in a second executable,
/// `stagemix-service`, built beside this one: `stagemix` itself (compose, plan, preview, synth,
/// probe) then builds without SwiftNIO, NIO-SSL, BoringSSL, PostgresNIO or Hummingbird, and a
/// newcomer's first `scripts/compose-sample` compiles only what composing needs.
/// `stagemix serve …` runs `stagemix-service serve …` in this process's place (execv), so the
/// user sees one command either way.
enum ServiceCommands {
    static let names: Set<String> = ["serve", "worker", "enqueue", "jobs", "token"]
    static let executableName = "stagemix-service"

    /// Replaces this process with `stagemix-service` when the first argument names one of its commands.
    static func execIfServiceCommand(_ arguments: [String] = CommandLine.arguments) {
        guard arguments.count > 1, names.contains(arguments[1]) else { return }
        let path = siblingPath()
        guard FileManager.default.isExecutableFile(atPath: path) else {
            let message = """
                stagemix: `\(arguments[1])` is in \(executableName), which is not built beside this binary (\(path)).
                Build it with: swift build\(path.contains("/release/") ? " -c release" : "") --product \(executableName)

                """
            try? FileHandle.standardError.write(contentsOf: Data(message.utf8))
            exit(ComposeChild.ExitStatus.internalFailure.rawValue)
        }
        var cArguments: [UnsafeMutablePointer<CChar>?] = ([path] + arguments.dropFirst()).map { strdup($0) }
        cArguments.append(nil)
        execv(path, &cArguments)
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: cannot run \(path): \(String(cString: strerror(errno)))\n".utf8))
        exit(ComposeChild.ExitStatus.internalFailure.rawValue)
    }

    /// `stagemix-service` in the directory of this executable (symbolic links resolved).
    static func siblingPath() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(executableName).path
    }
}

/// Entries for `stagemix --help`; the commands themselves never run here (see ``ServiceCommands``).
struct ServiceCommandEntry {
    static func configuration(_ name: String, _ abstract: String) -> CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract + " (in stagemix-service)")
    }
}

extension StageMix {
    struct Serve: ParsableCommand {
        static let configuration = ServiceCommandEntry.configuration("serve", "Run the HTTP API, webhooks and, with --workers, the compose workers.")
    }
    struct Worker: ParsableCommand {
        static let configuration = ServiceCommandEntry.configuration("worker", "Run queued compose jobs, each in a child process.")
    }
    struct Enqueue: ParsableCommand {
        static let configuration = ServiceCommandEntry.configuration("enqueue", "Queue a compose job and print its id.")
    }
    struct Jobs: ParsableCommand {
        static let configuration = ServiceCommandEntry.configuration("jobs", "List, show, cancel or retry compose jobs.")
    }
    struct Token: ParsableCommand {
        static let configuration = ServiceCommandEntry.configuration("token", "Make an API token (HS256 JWT) for the service.")
    }
}
