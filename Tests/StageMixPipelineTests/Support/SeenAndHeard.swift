import Foundation
import Testing
import StageMixMedia

/// Who a composed output shows and lets be heard at an instant, by the solid colours and tones an
/// import fixture gave each participant: a colour is seen when enough of the frame is close to it, a
/// tone heard when its power in 0.3 s around the instant is a share of its loudest.
struct SeenAndHeard {
    let output: ComposedOutput
    private let loudest: [Double: Double]

    init(_ output: ComposedOutput, tones: [Double], over span: ClosedRange<Double>) {
        self.output = output
        var loudest: [Double: Double] = [:]
        for hz in tones {
            loudest[hz] = stride(from: span.lowerBound, to: span.upperBound, by: 0.25).map { tonePower(hz, in: output.audio(from: $0 - 0.15, to: $0 + 0.15)) }.max() ?? 0
        }
        self.loudest = loudest
    }

    func share(of colour: RGBColor, at t: Double) -> Double {
        output.frame(at: t).map { AgoraImportTests.look(for: colour, in: $0).share } ?? 0
    }

    /// A tone's power around `t` as a share of its loudest.
    func level(_ hz: Double, at t: Double) -> Double {
        tonePower(hz, in: output.audio(from: t - 0.15, to: t + 0.15)) / max(loudest[hz] ?? 0, 1e-12)
    }

    /// Each colour seen (over 1% of the frame) or not (under 0.2%), each tone heard (over 5%) or not (under 1%).
    func expect(at t: Double, seen: [(RGBColor, Bool)], heard: [(Double, Bool)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (colour, shown) in seen {
            let share = share(of: colour, at: t)
            #expect(shown ? share > 0.01 : share < 0.002, "\(colour) \(shown ? "not " : "")seen at \(t) s (\(share))", sourceLocation: sourceLocation)
        }
        for (hz, sounds) in heard {
            let level = level(hz, at: t)
            #expect(sounds ? level > 0.05 : level < 0.01, "\(hz) Hz \(sounds ? "not " : "")heard at \(t) s (\(level))", sourceLocation: sourceLocation)
        }
    }

    /// The first frame in `span` showing `colour`, and the first instant the tone `hz` sounds: where a
    /// participant's picture and sound change together, the two should be within a frame and 20 ms.
    func onsets(of colour: RGBColor, and hz: Double, in span: ClosedRange<Double>) -> (picture: Double?, sound: Double?) {
        let picture = output.frames.filter { span.contains($0.time) }.first { AgoraImportTests.look(for: colour, in: $0.frame).share > 0.01 }?.time
        let loud = loudest[hz] ?? 0
        let sound = stride(from: span.lowerBound, to: span.upperBound, by: 0.005).first {
            tonePower(hz, in: output.audio(from: $0, to: $0 + 0.3)) > loud * 0.1 && tonePower(hz, in: output.audio(from: $0, to: $0 + 0.02)) > loud * 0.02
        }
        return (picture, sound)
    }
}
