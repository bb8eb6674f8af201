public import Foundation
import StageMixJSON
import StageMixPlan
import StageMixQueue
import StageMixStorage

/// A document given inline in a request: its field, its JSON, and where it is kept for the job.
public struct InlineDocument: Sendable {
    public var field: String
    public var data: Data
    public var path: String
}

/// Price and tier tables, edit documents and Twilio layouts given inline in a request, kept in a local folder
/// (`--inputs-root`; by default `.stagemix-inputs` under a local output root) as `<sha256>.json`
/// (content-addressed: the same document is one file, and a file is never changed once written) for
/// the job to read. A request is checked from scratch files of its own, removed whatever happens
/// (tables as compose reads them, edits against the capture); the documents are kept only when a
/// composition is queued with them, so a refused request or a dry run leaves nothing behind.
public struct InlineTables: Sendable {
    public enum Kind: Sendable { case prices, tiers, edits }
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The document as the job will read it, noted in `inline`; returns where it will be kept.
    func encoded(_ value: JSONValue, field: String, kind: Kind, into inline: inout [InlineDocument]) throws(Problem) -> String {
        guard case .object = value else { throw Problem.invalid(field, "must be an object (the document itself), not \(value.kind)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An edit file may be as large as compose reads (1 MiB, the request's own limit); a table is small.
        let limit = kind == .edits ? 1 << 20 : 64 << 10
        guard let data = try? encoder.encode(value), data.count <= limit else {
            throw Problem.invalid(field, "must be at most \(limit >> 10) KiB of JSON")
        }
        return noted(data, field: field, into: &inline)
    }

    /// A document already in its bytes (a Twilio layout keeps its regions in the order given), noted in
    /// `inline`; returns where it will be kept.
    func noted(_ data: Data, field: String, into inline: inout [InlineDocument]) -> String {
        let name = SHA256Digest.hex(of: data) + ".json"
        let path = directory.appendingPathComponent(name).path
        inline.append(InlineDocument(field: field, data: data, path: path))
        return path
    }

    /// Writes `data` at `path` (under ``directory``) unless it is there already: whole or not at all.
    func keep(_ data: Data, at path: String, field: String) throws(Problem) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).part")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary)
            if rename(temporary.path, path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            // A full disk in its own words, naming the file: the operator's to free, the client's to retry.
            if let full = NoSpaceLeft(error, path: directory.path) { throw Problem.unavailable("cannot keep \(field): \(full)") }
            throw Problem.unavailable("cannot keep \(field) in the inputs folder: \(error.localizedDescription)")
        }
    }

    /// `data` in a scratch file of its own, for checking a request; the caller removes it.
    func scratch(_ data: Data, field: String) throws(Problem) -> URL {
        let url = directory.appendingPathComponent(".check-\(UUID().uuidString).json")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: url)
        } catch {
            try? FileManager.default.removeItem(at: url)
            if let full = NoSpaceLeft(error, path: url.path) { throw Problem.unavailable("cannot check \(field): \(full)") }
            throw Problem.unavailable("cannot check \(field) in the inputs folder: \(error.localizedDescription)")
        }
        return url
    }
}
