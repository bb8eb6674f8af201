import Foundation

extension ComposeChild {
    /// One line of progress that `stagemix compose` prints on stdout when it is not a terminal, and
    /// the worker reads: `{"event":"progress","percent":12.5,"speed":3.10,"etaSeconds":20.0}`. Other
    /// lines (other events, anything that is not JSON) are not progress.
    public struct ProgressLine: Sendable, Hashable, Decodable {
        /// How far the composition is, 0 to 100.
        public var percent: Double
        /// Session seconds composed per wall-clock second.
        public var speed: Double
        public var etaSeconds: Double

        public init(percent: Double, speed: Double, etaSeconds: Double) {
            self.percent = percent
            self.speed = speed
            self.etaSeconds = etaSeconds
        }

        private static let event = "progress"

        private enum CodingKeys: String, CodingKey {
            case event, percent, speed, etaSeconds
        }

        /// The line as compose prints it, without the newline: percent and time left to 0.1, speed to 0.01.
        public var text: String {
            String(format: #"{"%@":"%@","%@":%.1f,"%@":%.2f,"%@":%.1f}"#,
                   CodingKeys.event.stringValue, Self.event, CodingKeys.percent.stringValue, percent,
                   CodingKeys.speed.stringValue, speed, CodingKeys.etaSeconds.stringValue, etaSeconds)
        }

        /// The progress in `line`, or nil when it is not a progress line.
        public init?(parsing line: String) {
            guard line.first == "{", let parsed = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)) else { return nil }
            self = parsed
        }

        /// Reads a progress event; speed and time left are optional, as only the percent is needed.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard try container.decode(String.self, forKey: .event) == Self.event else {
                throw DecodingError.dataCorruptedError(forKey: .event, in: container, debugDescription: "not a progress event")
            }
            percent = try container.decode(Double.self, forKey: .percent)
            speed = try container.decodeIfPresent(Double.self, forKey: .speed) ?? 0
            etaSeconds = try container.decodeIfPresent(Double.self, forKey: .etaSeconds) ?? 0
        }
    }
}
