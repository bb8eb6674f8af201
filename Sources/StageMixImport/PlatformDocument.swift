import Foundation
import StageMixJSON

/// One JSON file of a platform's export, read with the strict parser so a problem names the file and
/// its JSON path; and the value shapes platforms' APIs use (ISO 8601 times, whole seconds).
struct PlatformDocument {
    let url: URL

    init(_ url: URL) { self.url = url }

    /// The file's top-level object, or a problem naming the file.
    func object(_ problems: inout [JSONProblem]) -> JSONObject? {
        let name = url.lastPathComponent
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problems.append(JSONProblem(file: name, path: "", expected: "\(name) in \(url.deletingLastPathComponent().path)", found: "no such file"))
            return nil
        }
        guard data.count <= 64 << 20 else {
            problems.append(JSONProblem(file: name, path: "$", expected: "at most 64 MiB", found: "\(data.count) bytes"))
            return nil
        }
        do {
            guard case .object(let object) = try JSONTextParser.parse(Array(data)) else {
                problems.append(JSONProblem(file: name, path: "$", expected: "a JSON object, as the platform's API answers", found: "another JSON value"))
                return nil
            }
            return object
        } catch {
            problems.append(JSONProblem(file: name, syntax: error))
            return nil
        }
    }

    /// `2026-11-20T18:00:00Z`, with or without fractional seconds.
    static func date(_ value: JSONValue) -> Date? {
        guard case .string(let text) = value else { return nil }
        return parseDate(text)
    }

    static func parseDate(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// Whole seconds (Twilio's `duration`), as milliseconds.
    static func seconds(_ value: JSONValue) -> Int? {
        JSONConvert.integer(in: 0...(24 * 3600 * 7))(value).map { $0 * 1000 }
    }

    /// The capture contract's `startedAt`: RFC 3339 UTC with milliseconds.
    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
