import Testing
@testable import StageMixTime

/// The conversions between milliseconds, 48 kHz samples and frames, and their one rounding rule:
/// instants down to the unit holding them, span ends and counts up, Double seconds to the nearest.
@Suite("Media time")
struct MediaTimeTests {
    static let dayMs = 24 * 60 * 60 * 1_000

    @Test func millisecondsToSamplesIsExact() {
        #expect(MediaTime.sampleRate == 48_000)
        #expect(MediaTime.samples(ms: 0) == 0)
        #expect(MediaTime.samples(ms: 1) == 48)
        #expect(MediaTime.samples(ms: -3) == -144)
        #expect(MediaTime.samples(ms: Self.dayMs) == 4_147_200_000)
        for ms in [0, 1, 999, 1_000, 123_457, Self.dayMs] {
            #expect(MediaTime.ms(atSample: MediaTime.samples(ms: ms)) == ms)
            #expect(MediaTime.ms(endingAtSample: MediaTime.samples(ms: ms)) == ms)
        }
    }

    @Test func samplesToMillisecondsRoundInstantsDownAndEndsUp() {
        #expect(MediaTime.ms(atSample: 47) == 0)
        #expect(MediaTime.ms(atSample: 48) == 1)
        #expect(MediaTime.ms(atSample: 95) == 1)
        #expect(MediaTime.ms(endingAtSample: 1) == 1)
        #expect(MediaTime.ms(endingAtSample: 48) == 1)
        #expect(MediaTime.ms(endingAtSample: 49) == 2)
        // Towards -infinity, not towards zero.
        #expect(MediaTime.ms(atSample: -1) == -1)
        #expect(MediaTime.ms(atSample: -48) == -1)
        #expect(MediaTime.ms(atSample: -49) == -2)
        #expect(MediaTime.ms(endingAtSample: -1) == 0)
        #expect(MediaTime.ms(endingAtSample: -49) == -1)
        let lastOfADay = MediaTime.samples(ms: Self.dayMs) - 1
        #expect(MediaTime.ms(atSample: lastOfADay) == Self.dayMs - 1)
        #expect(MediaTime.ms(endingAtSample: lastOfADay) == Self.dayMs)
    }

    @Test func sessionSampleIsLaterByTheOffset() {
        #expect(MediaTime.sessionSample(0, sessionOffsetMs: 0) == 0)
        #expect(MediaTime.sessionSample(10, sessionOffsetMs: 2_000) == 96_010)
        #expect(MediaTime.sessionSample(MediaTime.samples(ms: Self.dayMs), sessionOffsetMs: Self.dayMs) == 8_294_400_000)
    }

    @Test func framesAtWholeRates() {
        #expect(MediaTime.ms(atFrame: 0, fps: 30) == 0)
        #expect(MediaTime.ms(atFrame: 1, fps: 30) == 33)
        #expect(MediaTime.ms(atFrame: 2, fps: 30) == 66)
        #expect(MediaTime.ms(atFrame: 3, fps: 30) == 100)
        #expect(MediaTime.ms(atFrame: -1, fps: 30) == -34)
        #expect(MediaTime.frame(atMs: 33, fps: 30) == 0)
        #expect(MediaTime.frame(atMs: 34, fps: 30) == 1)
        #expect(MediaTime.frame(atMs: -1, fps: 30) == -1)
        #expect(MediaTime.frameCount(ms: 0, fps: 30) == 0)
        #expect(MediaTime.frameCount(ms: 1, fps: 30) == 1)
        #expect(MediaTime.frameCount(ms: 1_000, fps: 30) == 30)
        #expect(MediaTime.frameCount(ms: 1_001, fps: 30) == 31)
        #expect(MediaTime.frameCount(ms: Self.dayMs, fps: 60) == 5_184_000)
        #expect(MediaTime.sample(atFrame: 1, fps: 30) == 1_600)
        #expect(MediaTime.sample(atFrame: 1, fps: 7) == 6_857)
        #expect(MediaTime.sample(atFrame: 7, fps: 7) == 48_000)
        #expect(MediaTime.sample(atFrame: 5_184_000, fps: 60) == MediaTime.samples(ms: Self.dayMs))
        // Every frame's first ms is held by that frame.
        for fps in [1, 7, 15, 24, 25, 30, 60] {
            for frame in 0..<(3 * fps) {
                #expect(MediaTime.frame(atMs: MediaTime.ceilingDivision(frame * 1_000, fps), fps: fps) == frame)
            }
        }
    }

    @Test func doubleSecondsGoToTheNearestUnit() {
        #expect(MediaTime.ms(seconds: 0.3) == 300, "0.3 * 1000 is 299.99999999999994")
        #expect(MediaTime.ms(seconds: 2.5) == 2_500)
        #expect(MediaTime.ms(seconds: 0.0005) == 1, "halves away from zero")
        #expect(MediaTime.ms(seconds: -0.0005) == -1)
        #expect(MediaTime.ms(seconds: 86_400) == Self.dayMs)
        #expect(MediaTime.ms(holdingSeconds: 1.2349) == 1_234)
        #expect(MediaTime.ms(holdingSeconds: -0.0001) == -1)
        #expect(MediaTime.frames(seconds: 2, fps: 30) == 60)
        #expect(MediaTime.frames(seconds: 0.5, fps: 15) == 8)
        #expect(MediaTime.samples(seconds: 0.1) == 4_800)
        #expect(MediaTime.samples(seconds: 86_400) == 4_147_200_000)
        #expect(MediaTime.seconds(ms: 1_500) == 1.5)
        #expect(MediaTime.seconds(samples: 24_000) == 0.5)
        #expect(MediaTime.seconds(ms: Self.dayMs) == 86_400)
    }
}
