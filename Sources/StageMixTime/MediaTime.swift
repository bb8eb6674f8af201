/// The composition's clocks and the one rounding rule between them: milliseconds (session or output
/// time), samples of the mix at 48 kHz, and frames at the output's whole-number rate.
///
/// The rule: milliseconds to samples is exact (48 a millisecond). Otherwise an instant goes to the
/// unit that holds it (rounded down, towards -infinity, negative values included), and the end of a
/// span, or a count, goes up, so a converted span still covers every unit it touched. Seconds held as
/// a `Double` (options, timestamps) are measurements whose error is far below a unit: a length or a
/// time given in them goes to the nearest unit, halves away from zero. Every Int result fits for
/// times far beyond a capture's 24 hours (a day is 4.1e9 samples; Int is 64-bit).
public enum MediaTime {
    /// The mix's sample rate, and the rate every track is decoded or resampled to: Opus's own.
    public static let sampleRate = 48_000
    /// Mix samples in a millisecond.
    public static let samplesPerMs = sampleRate / 1_000

    // MARK: Milliseconds and samples

    /// The first sample of millisecond `ms` (exact).
    public static func samples(ms: Int) -> Int { ms * samplesPerMs }

    /// The millisecond that holds `sample`.
    public static func ms(atSample sample: Int) -> Int { floorDivision(sample, samplesPerMs) }

    /// The end of a span that ends before `sample`: the first millisecond not wholly before it.
    public static func ms(endingAtSample sample: Int) -> Int { ceilingDivision(sample, samplesPerMs) }

    /// Where output sample `sample` is read in the session, when the session runs `sessionOffsetMs`
    /// ahead of the output there (what edits cut before it).
    public static func sessionSample(_ sample: Int, sessionOffsetMs: Int) -> Int {
        sample + samples(ms: sessionOffsetMs)
    }

    // MARK: Frames

    /// The millisecond that holds the start of frame `frame`.
    public static func ms(atFrame frame: Int, fps: Int) -> Int { floorDivision(frame * 1_000, fps) }

    /// The frame that holds millisecond `ms`.
    public static func frame(atMs ms: Int, fps: Int) -> Int { floorDivision(ms * fps, 1_000) }

    /// Frames needed to cover `ms` milliseconds from 0 (the last one may be partly past the end).
    public static func frameCount(ms: Int, fps: Int) -> Int { ceilingDivision(ms * fps, 1_000) }

    /// The sample that holds the start of frame `frame`.
    public static func sample(atFrame frame: Int, fps: Int) -> Int { floorDivision(frame * sampleRate, fps) }

    // MARK: Seconds as Doubles

    /// A time or length in seconds, to the nearest millisecond.
    public static func ms(seconds: Double) -> Int { Int((seconds * 1_000).rounded()) }

    /// The millisecond that holds the instant `seconds` (rounded down, as any instant).
    public static func ms(holdingSeconds seconds: Double) -> Int { Int((seconds * 1_000).rounded(.down)) }

    /// A length in seconds, to the nearest number of frames at `fps`.
    public static func frames(seconds: Double, fps: Int) -> Int { Int((seconds * Double(fps)).rounded()) }

    /// A length in seconds, to the nearest number of samples.
    public static func samples(seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }

    /// Milliseconds as seconds.
    public static func seconds(ms: Int) -> Double { Double(ms) / 1_000 }

    /// Samples as seconds.
    public static func seconds(samples: Int) -> Double { Double(samples) / Double(sampleRate) }

    // MARK: Rounding

    /// `a / b` rounded towards -infinity (Swift's `/` truncates towards zero); `b` > 0.
    static func floorDivision(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return a % b < 0 ? q - 1 : q
    }

    /// `a / b` rounded towards +infinity; `b` > 0.
    static func ceilingDivision(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return a % b > 0 ? q + 1 : q
    }
}
