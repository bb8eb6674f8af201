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
            guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
                  name.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) })
            else { return nil }
            return "export \(name)=\(Self.quoted(value))"
        }
        FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
    }

    /// Put before `exec ...` in a `bash -c` command.
    public var sourced: String { ". \(Self.quoted(path)) && " }

    /// `value` in single quotes, as bash reads it back unchanged.
    public static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
