import Foundation
import StageMixJSON

extension PlatformClock {
    /// An instant in whichever way a platform (or a user saving its JSON) wrote it, as Unix
    /// milliseconds: ISO 8601 text, Unix milliseconds, or Unix seconds (fractions allowed), each a JSON
    /// number or a string. Milliseconds and seconds cannot be confused: only instants between 2000 and
    /// 2100 are accepted, and those are 12 or 13 digits in milliseconds and 9 or 10 in seconds.
    static func instant(_ value: JSONValue) -> Int64? {
        isoMs(value) ?? isoMs(millisecondFraction(value)) ?? unixMs(value) ?? unixSeconds(value)
    }

    /// ISO 8601 text with its fraction cut to milliseconds: platforms write nanoseconds
    /// (`2021-08-08T07:04:15.001380432Z`, as 100ms does), which the date parser does not take.
    private static func millisecondFraction(_ value: JSONValue) -> JSONValue {
        guard case .string(let text) = value, let dot = text.firstIndex(of: "."), text.contains("T") else { return value }
        let digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        guard digits.count > 3 else { return value }
        return .string(String(text[...dot]) + digits.prefix(3) + text[digits.endIndex...])
    }

    /// A length in seconds (fractions allowed), a JSON number or a string, as milliseconds; at most a week.
    static func seconds(_ value: JSONValue) -> Int64? {
        let seconds: Double?
        switch value {
        case .number(let number): seconds = Double(number.text)
        case .string(let text): seconds = Double(text.trimmingCharacters(in: .whitespaces))
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds <= 7 * 24 * 3600 else { return nil }
        return Int64((seconds * 1000).rounded())
    }
}
