import Foundation

/// One JSON line `stagemix compose` prints when stdout is not a terminal,
/// e.g. `{"event":"progress","percent":12.5,"speed":3.1,"etaSeconds":20}`.
struct ComposeEvent: Decodable, Sendable {
    var event: String
    var percent: Double?

    /// The progress percent in `line`, if it is a progress event.
    static func progress(in line: String) -> Double? {
        guard line.first == "{", let event = try? JSONDecoder().decode(ComposeEvent.self, from: Data(line.utf8)),
              event.event == "progress"
        else { return nil }
        return event.percent
    }
}
