import Foundation
import StageMixJSON

/// Reads a tier or price table from disk into a JSON tree, through the same strict parser as
/// captures. A file that is missing, unreadable, too large or not JSON is one `BillingError`
/// naming it, never a Foundation error.
enum BillingTableFile {
    /// How problem reports name the file: as the user gave it.
    static func name(of url: URL) -> String { url.isFileURL ? url.relativePath : url.absoluteString }

    static func root(of url: URL) throws(BillingError) -> JSONValue {
        let file = name(of: url)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw BillingError("cannot read \(file): no such file")
        }
        if isDirectory.boolValue { throw BillingError("cannot read \(file): it is a directory") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
           size > BillingLimits.maxTableBytes {
            throw BillingError(problems: [JSONProblem(file: file, path: "$",
                expected: "a table of at most \(BillingLimits.maxTableBytes) bytes (docs/limits.md)", found: "\(size) bytes")])
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw BillingError("cannot read \(file): permission denied or an I/O error")
        }
        do {
            return try JSONTextParser.parse(Array(data))
        } catch {
            throw BillingError(problems: [JSONProblem(file: file, syntax: error)])
        }
    }
}
