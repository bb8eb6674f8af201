import StageMixLayout
public import StageMixCapture
import StageMixJSON
import StageMixTime

/// What a composition costs under aggregate-resolution billing: minutes per tier, per-track usage, cost.
public struct BillingReport: Sendable, Hashable, Codable {
    /// Usage of one subscribed track.
    public struct TrackUsage: Sendable, Hashable, Codable {
        public var trackId: String
        public var participantId: String
        public var kind: TrackKind
        public var subscribedSeconds: Double
        /// Integral of the flowing layer's width × height over time.
        public var pixelSeconds: Double
    }

    /// Aggregate resolution over one stretch of the plan.
    public struct Span: Sendable, Hashable, Codable {
        public var startMs: Int
        public var endMs: Int
        public var aggregatePixels: Int
        public var tier: String
    }

    /// One started minute and the tier it is billed at.
    public struct Minute: Sendable, Hashable, Codable {
        public var index: Int
        public var peakPixels: Int
        public var tier: String
    }

    public var durationMs: Int
    public var outputWidth: Int
    public var outputHeight: Int
    /// The tier the output's own resolution falls in, for comparison.
    public var outputTier: String
    public var spans: [Span]
    public var minutes: [Minute]
    /// Minutes billed in one tier.
    public struct TierMinutes: Sendable, Hashable, Codable {
        public var tier: String
        public var minutes: Int
    }

    /// Every tier, ascending, with the minutes billed in it.
    public var minutesPerTier: [TierMinutes]
    public var tracks: [TrackUsage]
    public var peakPixels: Int
    public var currency: String?
    public var cost: Double?
    /// How the minutes are counted, in words, for whoever reads `billing.json` without these docs:
    /// ``startedMinuteRule``. Optional so that a `billing.json` written before it still reads.
    public var rule: String?

    /// Each started minute of the output is one billed minute, in the tier of the highest aggregate
    /// reached in it (the platforms' rule; `minutes` lists each with its peak).
    public static let startedMinuteRule =
        "each started minute of the output is billed once, in the tier of its peak (the highest aggregate resolution reached in it)"

    public init(plan: CompositionPlan, tiers: BillingTiers = .agora, prices: PriceTable? = nil) throws(BillingError) {
        // A plan from a validated capture and layout is within these; one built in code might not be,
        // and the arithmetic below relies on them.
        guard (0...CaptureLimits.maxSessionMs).contains(plan.durationMs) else {
            throw BillingError("the plan lasts \(plan.durationMs) ms, outside 0 to \(CaptureLimits.maxSessionMs) ms (docs/limits.md)")
        }
        guard LayoutLimits.canvasSide.contains(plan.canvas.width), LayoutLimits.canvasSide.contains(plan.canvas.height) else {
            throw BillingError("the output canvas \(plan.canvas.width)x\(plan.canvas.height) is outside "
                + "\(LayoutLimits.canvasSide.lowerBound) to \(LayoutLimits.canvasSide.upperBound) pixels a side (docs/limits.md)")
        }
        try prices?.check(against: tiers)
        durationMs = plan.durationMs
        rule = Self.startedMinuteRule
        outputWidth = plan.canvas.width
        outputHeight = plan.canvas.height
        outputTier = try tiers.tier(for: plan.canvas.width * plan.canvas.height)

        var spans: [Span] = []
        for interval in plan.intervals {
            spans.append(Span(startMs: interval.startMs, endMs: interval.endMs,
                              aggregatePixels: interval.aggregatePixels,
                              tier: try tiers.tier(for: interval.aggregatePixels)))
        }
        self.spans = spans
        peakPixels = spans.map(\.aggregatePixels).max() ?? 0

        // Each started minute is billed at the highest tier reached in it. Each span raises the peak of
        // the minutes it touches, so the work is the spans plus the minutes (at most 1,440), not their product.
        var peaks = Array(repeating: 0, count: (plan.durationMs + 59_999) / 60_000)
        for span in spans where span.endMs > span.startMs {
            // Clamped to the session, for a plan built in code whose spans stray outside it.
            let first = max(0, span.startMs / 60_000), last = min(peaks.count - 1, (span.endMs - 1) / 60_000)
            guard first <= last else { continue }
            for index in first...last { peaks[index] = max(peaks[index], span.aggregatePixels) }
        }
        var minutes: [Minute] = []
        for (index, peak) in peaks.enumerated() {
            minutes.append(Minute(index: index, peakPixels: peak, tier: try tiers.tier(for: peak)))
        }
        self.minutes = minutes
        var minutesIn: [String: Int] = [:]
        for minute in minutes { minutesIn[minute.tier, default: 0] += 1 }
        minutesPerTier = tiers.names.map { TierMinutes(tier: $0, minutes: minutesIn[$0] ?? 0) }

        var usage: [String: TrackUsage] = [:]
        var order: [String] = []
        func add(_ trackId: String, _ participantId: String, _ kind: TrackKind, ms: Int, pixels: Int) {
            if usage[trackId] == nil {
                order.append(trackId)
                usage[trackId] = TrackUsage(trackId: trackId, participantId: participantId, kind: kind,
                                            subscribedSeconds: 0, pixelSeconds: 0)
            }
            usage[trackId]!.subscribedSeconds += MediaTime.seconds(ms: ms)
            usage[trackId]!.pixelSeconds += Double(pixels) * Double(ms) / 1000
        }
        for interval in plan.intervals {
            for tile in interval.tiles {
                guard let trackId = tile.trackId else { continue }
                add(trackId, tile.participantId, .video, ms: interval.durationMs, pixels: tile.flowingPixels)
            }
            for audio in interval.audio {
                add(audio.trackId, audio.participantId, .audio, ms: interval.durationMs, pixels: 0)
            }
        }
        tracks = order.map { usage[$0]! }

        if let prices {
            currency = prices.currency
            // A billed tier without a price would silently cost nothing.
            let unpriced = minutesPerTier.filter { $0.minutes > 0 && prices.perMinute[$0.tier] == nil }
            guard unpriced.isEmpty else {
                throw BillingError(problems: [JSONProblem(
                    file: prices.file ?? "price table", path: "$.perMinute",
                    expected: "a price for every tier billed",
                    found: "none for " + unpriced.map { "\"\($0.tier)\" (\($0.minutes) min)" }.joined(separator: ", "))])
            }
            cost = minutes.reduce(0) { $0 + prices.perMinute[$1.tier]! }
        } else {
            currency = nil
            cost = nil
        }
    }
}
