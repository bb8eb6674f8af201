import Crypto
import Foundation
import StageMixCore

/// Price and tier tables and edit documents given inline in a request. Each is kept under the output
/// root as `.stagemix-inputs/<sha256>.json` (content-addressed: the same document is one file, and a
/// file is never changed once written) for the job to read. Tables are checked here as compose would
/// check the file; edits need the capture, and are checked where the request is planned.
public struct InlineTables: Sendable {
    public enum Kind: Sendable { case prices, tiers, edits }
    public let directory: URL

    public init(outputRoot: String) {
        directory = URL(fileURLWithPath: outputRoot).appendingPathComponent(".stagemix-inputs")
    }

    func store(_ value: JSONValue, field: String, kind: Kind) throws(Problem) -> String {
        guard case .object = value else { throw Problem.invalid(field, "must be an object (the table itself), not \(value.kind)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An edit file may be as large as compose reads (1 MiB, the request's own limit); a table is small.
        let limit = kind == .edits ? 1 << 20 : 64 << 10
        guard let data = try? encoder.encode(value), data.count <= limit else {
            throw Problem.invalid(field, "must be at most \(limit >> 10) KiB of JSON")
        }
        let name = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() + ".json"
        let url = directory.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: url.path) {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString)")
                try data.write(to: temporary)
                if rename(temporary.path, url.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
            } catch {
                throw Problem.unavailable("cannot keep the table of \(field) under the output root: \(error.localizedDescription)")
            }
        }
        do {
            switch kind {
            case .prices: _ = try PriceTable.load(contentsOf: url)
            case .tiers: _ = try BillingTiers.load(contentsOf: url)
            case .edits: break
            }
        } catch {
            throw Problem.invalid(field, "\(error)".replacingOccurrences(of: url.path, with: field))
        }
        return url.path
    }
}
