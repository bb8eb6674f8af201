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

    public init(plan: CompositionPlan, tiers: BillingTiers = .agora, prices: PriceTable? = nil) throws(BillingError) {
        durationMs = plan.durationMs
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

        // Each started minute is billed at the highest tier reached in it.
        var minutes: [Minute] = []
        let minuteCount = (plan.durationMs + 59_999) / 60_000
        for index in 0..<minuteCount {
            let start = index * 60_000, end = min(start + 60_000, plan.durationMs)
            let peak = spans.filter { $0.startMs < end && $0.endMs > start }.map(\.aggregatePixels).max() ?? 0
            minutes.append(Minute(index: index, peakPixels: peak, tier: try tiers.tier(for: peak)))
        }
        self.minutes = minutes
        minutesPerTier = tiers.names.map { name in
            TierMinutes(tier: name, minutes: minutes.count { $0.tier == name })
        }

        var usage: [String: TrackUsage] = [:]
        var order: [String] = []
        func add(_ trackId: String, _ participantId: String, _ kind: TrackKind, ms: Int, pixels: Int) {
            if usage[trackId] == nil {
                order.append(trackId)
                usage[trackId] = TrackUsage(trackId: trackId, participantId: participantId, kind: kind,
                                            subscribedSeconds: 0, pixelSeconds: 0)
            }
            usage[trackId]!.subscribedSeconds += Double(ms) / 1000
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
            cost = minutes.reduce(0) { $0 + (prices.perMinute[$1.tier] ?? 0) }
        } else {
            currency = nil
            cost = nil
        }
    }
}
