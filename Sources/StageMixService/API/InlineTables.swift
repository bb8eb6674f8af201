import Crypto
import Foundation
import StageMixCore

/// Price and tier tables given inline in a request. Each is checked as compose would check the file,
/// then kept under the output root as `.stagemix-inputs/<sha256>.json` (content-addressed: the same
/// table is one file, and a file is never changed once written) for the job to read.
public struct InlineTables: Sendable {
    public enum Kind: Sendable { case prices, tiers }
    public let directory: URL

    public init(outputRoot: String) {
        directory = URL(fileURLWithPath: outputRoot).appendingPathComponent(".stagemix-inputs")
    }

    func store(_ value: JSONValue, field: String, kind: Kind) throws(Problem) -> String {
        guard case .object = value else { throw Problem.invalid(field, "must be an object (the table itself), not \(value.kind)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), data.count <= 64 << 10 else {
            throw Problem.invalid(field, "must be at most 64 KiB of JSON")
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
            }
        } catch {
            throw Problem.invalid(field, "\(error)".replacingOccurrences(of: url.path, with: field))
        }
        return url.path
    }
}
