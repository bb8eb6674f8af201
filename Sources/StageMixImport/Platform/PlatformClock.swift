import Foundation
import StageMixJSON

/// Instants as platforms write them, as Unix milliseconds: a JSON number or a string of digits
/// (Agora's `sliceStartTime` is either, depending on the API), in milliseconds or seconds; or ISO 8601
/// text. Only instants between 2000 and 2100 are accepted, so a value in the wrong unit is refused
/// rather than placed decades away.
enum PlatformClock {
    static let plausible: ClosedRange<Int64> = 946_684_800_000...4_102_444_800_000

    /// Unix milliseconds from a JSON number or a string of digits.
    static func unixMs(_ value: JSONValue) -> Int64? {
        integer(value).flatMap { plausible.contains($0) ? $0 : nil }
    }

    /// Unix seconds (a number or digits, fractions allowed), as milliseconds.
    static func unixSeconds(_ value: JSONValue) -> Int64? {
        let seconds: Double?
        switch value {
        case .number(let number): seconds = Double(number.text)
        case .string(let text): seconds = Double(text.trimmingCharacters(in: .whitespaces))
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite else { return nil }
        let ms = Int64((seconds * 1000).rounded())
        return plausible.contains(ms) ? ms : nil
    }

    /// ISO 8601 text (`2026-11-20T18:00:00Z`, fractions allowed), as Unix milliseconds.
    static func isoMs(_ value: JSONValue) -> Int64? {
        PlatformDocument.date(value).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }.flatMap { plausible.contains($0) ? $0 : nil }
    }

    /// A whole number from a JSON number or a string of ASCII digits.
    static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .number(let number): return number.integer.map(Int64.init)
        case .string(let text):
            guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int64(text)
        default: return nil
        }
    }

    /// The contract's `startedAt` for Unix milliseconds.
    static func rfc3339(_ unixMs: Int64) -> String {
        PlatformDocument.rfc3339(Date(timeIntervalSince1970: Double(unixMs) / 1000))
    }
}
