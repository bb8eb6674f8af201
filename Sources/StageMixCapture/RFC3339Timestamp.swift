import Foundation

/// Parses the UTC timestamps of `startedAt`: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)`.
///
/// Written out rather than left to `ISO8601DateFormatter` so that any number of fraction digits is
/// accepted, offsets other than UTC are refused, and impossible dates (February 30) are caught.
enum RFC3339Timestamp {
    /// The instant, and its year for range checks; `nil` when `text` is not such a timestamp.
    static func parseUTC(_ text: String) -> (date: Date, year: Int)? {
        let chars = Array(text.utf8)
        guard chars.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var result = 0
            for i in range {
                guard chars[i] >= UInt8(ascii: "0"), chars[i] <= UInt8(ascii: "9") else { return nil }
                result = result * 10 + Int(chars[i] - UInt8(ascii: "0"))
            }
            return result
        }
        guard let year = number(0..<4), chars[4] == UInt8(ascii: "-"),
              let month = number(5..<7), chars[7] == UInt8(ascii: "-"),
              let day = number(8..<10), chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: "t"),
              let hour = number(11..<13), chars[13] == UInt8(ascii: ":"),
              let minute = number(14..<16), chars[16] == UInt8(ascii: ":"),
              let second = number(17..<19)
        else { return nil }

        var index = 19
        var fraction = 0.0
        if chars[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < chars.count, let digit = number(index..<index + 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let zone = String(decoding: chars[index...], as: UTF8.self)
        guard zone == "Z" || zone == "z" || zone == "+00:00" else { return nil }

        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return (Date(timeIntervalSince1970: seconds), year)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days-from-civil, proleptic Gregorian.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
