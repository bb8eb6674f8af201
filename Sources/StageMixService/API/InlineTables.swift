import Crypto
import Foundation
import StageMixCore

/// Price and tier tables and edit documents given inline in a request, kept under the output root as
/// `.stagemix-inputs/<sha256>.json` (content-addressed: the same document is one file, and a file is
/// never changed once written) for the job to read. Tables are checked here, as compose would check
/// the file, and kept; edits need the capture, so they are checked where the request is planned
/// (from a private scratch file) and kept only once a composition is queued with them: a refused
/// request or a dry run leaves nothing behind.
public struct InlineTables: Sendable {
    public enum Kind: Sendable { case prices, tiers, edits }
    public let directory: URL

    public init(outputRoot: String) {
        directory = URL(fileURLWithPath: outputRoot).appendingPathComponent(".stagemix-inputs")
    }

    /// The document as the job will read it, and where it will be kept.
    func encoded(_ value: JSONValue, field: String, kind: Kind) throws(Problem) -> (data: Data, path: String) {
        guard case .object = value else { throw Problem.invalid(field, "must be an object (the document itself), not \(value.kind)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An edit file may be as large as compose reads (1 MiB, the request's own limit); a table is small.
        let limit = kind == .edits ? 1 << 20 : 64 << 10
        guard let data = try? encoder.encode(value), data.count <= limit else {
            throw Problem.invalid(field, "must be at most \(limit >> 10) KiB of JSON")
        }
        let name = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() + ".json"
        return (data, directory.appendingPathComponent(name).path)
    }

    /// A table, checked and kept; its path for the job.
    func store(_ value: JSONValue, field: String, kind: Kind) throws(Problem) -> String {
        let (data, path) = try encoded(value, field: field, kind: kind)
        try keep(data, at: path, field: field)
        let url = URL(fileURLWithPath: path)
        do {
            switch kind {
            case .prices: _ = try PriceTable.load(contentsOf: url)
            case .tiers: _ = try BillingTiers.load(contentsOf: url)
            case .edits: break
            }
        } catch {
            throw Problem.invalid(field, "\(error)".replacingOccurrences(of: path, with: field))
        }
        return path
    }

    /// Writes `data` at `path` (under ``directory``) unless it is there already: whole or not at all.
    func keep(_ data: Data, at path: String, field: String) throws(Problem) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".\(UUID().uuidString).part")
            try data.write(to: temporary)
            if rename(temporary.path, path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            throw Problem.unavailable("cannot keep \(field) under the output root: \(error.localizedDescription)")
        }
    }

    /// `data` in a scratch file of its own, for checking a request; the caller removes it.
    func scratch(_ data: Data, field: String) throws(Problem) -> URL {
        let url = directory.appendingPathComponent(".check-\(UUID().uuidString).json")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: url)
        } catch {
            throw Problem.unavailable("cannot check \(field) under the output root: \(error.localizedDescription)")
        }
        return url
    }
}
