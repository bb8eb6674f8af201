import Foundation

/// Environment variables for a process a test starts through bash (a worker, `serve`, the CLI): a
/// file only its owner can read, which the shell sources before it execs the process. Secrets (the
/// object store's keys) are then in neither the test process's own environment, which every other
/// test's children inherit, nor any command line.
public struct EnvironmentFile: Sendable {
    public let path: String

    /// Writes `variables` (names a shell can export; others are left out) to `directory/name`.
    public init(_ variables: [String: String], in directory: String, name: String = "environment") throws {
        path = "\(directory)/\(name)"
        let lines = variables.sorted { $0.key < $1.key }.compactMap { name, value -> String? in
            guard name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else { return nil }
            return "export \(name)=\(Self.quoted(value))"
        }
        guard FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TestFailure("cannot write \(path)")
        }
    }

    /// A `bash -c` command that execs `arguments`, with `environment`'s variables if one is given.
    public static func exec(_ arguments: [String], with environment: EnvironmentFile?) -> String {
        (environment.map { ". \(quoted($0.path)) && " } ?? "") + "exec " + arguments.map(quoted).joined(separator: " ")
    }

    /// `value` in single quotes, as bash reads it back unchanged.
    public static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
