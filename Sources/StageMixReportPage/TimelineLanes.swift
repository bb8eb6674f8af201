public import StageMixCapture
public import StageMixPlan

/// The page's timeline as values: one lane per participant ever on stage, in the order they first
/// came on, with their spans (on stage, muted, paused, screen share, excluded by edits, media lost,
/// the simulcast layer read), and the markers (pins; invitations on the audience lane). Times are the
/// session's; each span also carries the output instant it starts at, for the player.
public struct TimelineLanes: Sendable {
    public struct Lane: Sendable, Hashable {
        public var participantId: String
        public var name: String
    }

    public struct Marker: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case pin, requested, accepted, declined, expired, joined, left }
        /// nil: the audience lane.
        public var participantId: String?
        public var kind: Kind
        public var atMs: Int
        public var outputMs: Int
        public var label: String
    }

    /// A stretch of the session that edits took out of the output (`trim` or `cut`): blank in every
    /// lane, and not in the video, which goes on from `resumesAtMs` (output time).
    public struct Removal: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case trimmed, cut }
        public var kind: Kind
        public var fromMs: Int
        public var toMs: Int
        public var resumesAtMs: Int
    }

    public var lanes: [Lane]
    public var spans: [PageSpan]
    public var markers: [Marker]
    /// In session time, in order.
    public var removed: [Removal]
    public var durationMs: Int

    /// `capture` adds the audience's joins and leaves (viewers who never came on stage), counted per
    /// thousandth of the session so a crowd of any size is at most a thousand marks of each.
    public init(document: PlanDocument, losses: [ComposedRun.Loss] = [], capture: Capture? = nil) {
        let timeline = document.timeline
        var lanes: [Lane] = []
        var seen: Set<String> = []
        var spans: [PageSpan] = []
        var markers: [Marker] = []
        var owner: [String: String] = [:]
        // People by name wherever the page names them; an id only for someone the capture does not list.
        var names: [String: String] = [:]
        for participant in capture?.participants ?? [] { names[participant.id] = participant.name }
        func name(_ id: String) -> String { names[id] ?? id }
        var latest: [String: Int] = [:]
        func add(_ participant: String, _ kind: PageSpan.Kind, _ from: Int, _ to: Int, offset: Int, _ label: String) {
            guard to > from else { return }
            // A span that goes on where the same one ended is one span.
            let key = "\(kind.rawValue) \(participant)"
            if let index = latest[key], spans[index].toMs == from + offset, spans[index].label == label {
                spans[index].toMs = to + offset
                return
            }
            latest[key] = spans.count
            spans.append(PageSpan(participantId: participant, kind: kind, fromMs: from + offset, toMs: to + offset, outputMs: from, label: label))
        }
        for segment in timeline.segments {
            let offset = segment.sessionOffsetMs ?? 0
            for person in segment.onStage {
                if seen.insert(person.participantId).inserted {
                    lanes.append(Lane(participantId: person.participantId, name: person.name))
                    names[person.participantId] = person.name
                    // A pin keeps the session's time (the stage's order): its output instant is where the video shows it.
                    if person.pinnedAtMs >= 0 {
                        markers.append(Marker(participantId: person.participantId, kind: .pin, atMs: person.pinnedAtMs,
                                              outputMs: timeline.outputMs(ofSession: person.pinnedAtMs), label: "\(person.name) pinned"))
                    }
                }
                add(person.participantId, .onstage, segment.startMs, segment.endMs, offset: offset, "\(person.name) on stage")
                if !person.hasTile {
                    add(person.participantId, .notshown, segment.startMs, segment.endMs, offset: offset,
                        "\(person.name) on stage, not shown: \(person.notShown ?? "no track")")
                }
                for track in person.tracks {
                    owner[track.trackId] = person.participantId
                    let what = track.kind == .audio ? "microphone" : track.source == .screenShare ? "screen share" : "camera"
                    switch track.flow {
                    case .muted: add(person.participantId, .muted, segment.startMs, segment.endMs, offset: offset, "\(person.name): \(what) muted")
                    case .pausedHolding: add(person.participantId, .paused, segment.startMs, segment.endMs, offset: offset, "\(person.name): \(what) paused, last frame held")
                    case .paused: add(person.participantId, .paused, segment.startMs, segment.endMs, offset: offset, "\(person.name): \(what) paused, placeholder shown")
                    case .flowing: break
                    }
                    if track.source == .screenShare {
                        add(person.participantId, .screenshare, segment.startMs, segment.endMs, offset: offset, "\(person.name) shares a screen")
                    }
                }
            }
        }
        for interval in document.plan.intervals {
            let offset = interval.sessionOffsetMs ?? 0
            for tile in interval.tiles {
                guard let layer = tile.layer, let track = tile.trackId else { continue }
                owner[track] = tile.participantId
                add(tile.participantId, .layer, interval.startMs, interval.endMs, offset: offset,
                    "\(tile.name): \(layer.quality.rawValue) layer read, \(layer.width)x\(layer.height)")
            }
        }
        for exclusion in timeline.edits?.exclude ?? [] where seen.contains(exclusion.participantId) {
            let excluded = name(exclusion.participantId)
            // Exclusions are the edit file's, on the session's clock: a whole-session one spans all of it.
            for span in exclusion.spans ?? [SessionEdits.Span(fromMs: 0, toMs: timeline.output?.sessionDurationMs ?? timeline.durationMs)] {
                spans.append(PageSpan(participantId: exclusion.participantId, kind: .excluded, fromMs: span.fromMs, toMs: span.toMs,
                                      outputMs: timeline.outputMs(ofSession: span.fromMs), label: "\(excluded) excluded by edits"))
            }
        }
        // Losses and speaking turns count output time (report.json, plan.json): drawn where the session had them.
        for loss in losses {
            let participant = owner[loss.trackId] ?? loss.trackId
            if seen.insert(participant).inserted { lanes.append(Lane(participantId: participant, name: name(participant))) }
            let (from, to) = timeline.sessionSpan(ofOutput: loss.fromMs, loss.toMs)
            spans.append(PageSpan(participantId: participant, kind: .lost, fromMs: from, toMs: max(to, from + 1),
                                  outputMs: loss.fromMs, label: "\(loss.trackId): \(loss.message)"))
        }
        for turn in document.plan.speakers?.turns ?? [] where seen.contains(turn.participantId) {
            let (from, to) = timeline.sessionSpan(ofOutput: turn.fromMs, turn.toMs)
            spans.append(PageSpan(participantId: turn.participantId, kind: .speaking, fromMs: from, toMs: max(to, from + 1),
                                  outputMs: turn.fromMs, label: "\(name(turn.participantId)) speaking"))
        }
        let sessionMs = timeline.output?.sessionDurationMs ?? timeline.durationMs
        let bucketMs = max(1, (sessionMs + 999) / 1000)
        if let capture {
            var counts: [Int: (joined: Int, left: Int)] = [:]
            for event in capture.events {
                switch event.action {
                case .participantJoined(let id, _, _) where !seen.contains(id): counts[event.atMs / bucketMs, default: (0, 0)].joined += 1
                case .participantLeft(let id) where !seen.contains(id): counts[event.atMs / bucketMs, default: (0, 0)].left += 1
                default: break
                }
            }
            for (bucket, count) in counts.sorted(by: { $0.key < $1.key }) {
                let at = bucket * bucketMs
                for (kind, n) in [(Marker.Kind.joined, count.joined), (.left, count.left)] where n > 0 {
                    markers.append(Marker(participantId: nil, kind: kind, atMs: at, outputMs: timeline.outputMs(ofSession: at),
                                          label: n == 1 ? "a viewer \(kind.rawValue)" : "\(n) viewers \(kind.rawValue)"))
                }
            }
        }
        // Invitations: each one's request and outcome, or per thousandth of the session when there are
        // more than a thousand (a page stays readable and bounded however many a session holds).
        // timeline.json has them on the output's clock; the lanes are the session's.
        var invitationMarks: [(kind: Marker.Kind, atMs: Int, outputMs: Int, label: String)] = []
        for invitation in timeline.invitations {
            let sender = invitation.senderName ?? name(invitation.senderId), receiver = name(invitation.receiverId)
            invitationMarks.append((.requested, timeline.sessionMs(ofOutput: invitation.requestedAtMs), invitation.requestedAtMs,
                                    "\(sender) invited \(receiver) on stage"))
            if let resolved = invitation.resolvedAtMs, let kind = Marker.Kind(rawValue: invitation.outcome.rawValue), kind != .requested {
                let inCut = invitation.resolvedInCut == true ? " (in time the edits took out; marked where the video resumes)" : ""
                invitationMarks.append((kind, timeline.sessionMs(ofOutput: resolved), resolved,
                                        "\(receiver) \(invitation.outcome.rawValue) \(sender)'s invitation\(inCut)"))
            }
        }
        if invitationMarks.count > 1000 {
            var counts: [String: (kind: Marker.Kind, atMs: Int, count: Int)] = [:]
            for mark in invitationMarks {
                let bucket = mark.atMs / bucketMs
                counts["\(mark.kind.rawValue) \(bucket)", default: (mark.kind, bucket * bucketMs, 0)].count += 1
            }
            invitationMarks = counts.values.sorted { ($0.atMs, $0.kind.rawValue) < ($1.atMs, $1.kind.rawValue) }
                .map { ($0.kind, $0.atMs, timeline.outputMs(ofSession: $0.atMs), "\($0.count) invitations \($0.kind == .requested ? "made" : $0.kind.rawValue)") }
        }
        for mark in invitationMarks {
            markers.append(Marker(participantId: nil, kind: mark.kind, atMs: mark.atMs, outputMs: mark.outputMs, label: mark.label))
        }
        self.lanes = lanes
        self.spans = spans
        self.markers = markers
        removed = Self.removals(timeline)
        durationMs = timeline.output.map { $0.sessionDurationMs } ?? timeline.durationMs
    }

    /// What edits took out: the session's stretches between the kept pieces. One at the session's
    /// start or end is the trim's, any other a cut.
    static func removals(_ timeline: StageTimeline) -> [Removal] {
        guard let clock = timeline.output else { return [] }
        let trim = timeline.edits?.trim
        var removed: [Removal] = []
        var at = 0
        // The kept pieces, then the session's end, where a trimmed end stops.
        let kept = clock.pieces.map { ($0.sessionFromMs, $0.sessionToMs, $0.outputFromMs) } + [(clock.sessionDurationMs, clock.sessionDurationMs, clock.durationMs)]
        for (from, to, output) in kept {
            if from > at {
                let trimmed = (at == 0 && trim?.startMs != nil) || (from == clock.sessionDurationMs && trim?.endMs != nil)
                removed.append(Removal(kind: trimmed ? .trimmed : .cut, fromMs: at, toMs: from, resumesAtMs: output))
            }
            at = max(at, to)
        }
        return removed
    }
}

extension StageTimeline {
    /// Where the output's `[fromMs, toMs)` is in the session: an end at a cut is where the cut starts.
    func sessionSpan(ofOutput fromMs: Int, _ toMs: Int) -> (from: Int, to: Int) {
        let from = sessionMs(ofOutput: fromMs)
        return (from, toMs > fromMs ? sessionMs(ofOutput: toMs - 1) + 1 : from)
    }

    /// Where output instant `ms` is in the session.
    func sessionMs(ofOutput ms: Int) -> Int {
        guard let clock = output else { return ms }
        let piece = clock.pieces.last { $0.outputFromMs <= ms } ?? clock.pieces.first
        return ms + (piece?.offsetMs ?? 0)
    }

    /// Where session instant `ms` is in the output: its piece's output time, or the next kept piece's start when it was cut.
    func outputMs(ofSession ms: Int) -> Int {
        guard let clock = output else { return ms }
        for piece in clock.pieces where ms < piece.sessionToMs {
            return ms >= piece.sessionFromMs ? ms - piece.offsetMs : piece.outputFromMs
        }
        return clock.pieces.last?.outputToMs ?? ms
    }
}
