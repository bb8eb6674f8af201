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

    public var lanes: [Lane]
    public var spans: [PageSpan]
    public var markers: [Marker]
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
                    if person.pinnedAtMs >= 0 {
                        markers.append(Marker(participantId: person.participantId, kind: .pin, atMs: person.pinnedAtMs,
                                              outputMs: max(0, person.pinnedAtMs - offset), label: "\(person.name) pinned"))
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
            let name = lanes.first { $0.participantId == exclusion.participantId }?.name ?? exclusion.participantId
            for span in exclusion.spans ?? [SessionEdits.Span(fromMs: 0, toMs: timeline.durationMs)] {
                spans.append(PageSpan(participantId: exclusion.participantId, kind: .excluded, fromMs: span.fromMs, toMs: span.toMs,
                                      outputMs: timeline.outputMs(ofSession: span.fromMs), label: "\(name) excluded by edits"))
            }
        }
        for loss in losses {
            let participant = owner[loss.trackId] ?? loss.trackId
            if seen.insert(participant).inserted { lanes.append(Lane(participantId: participant, name: participant)) }
            spans.append(PageSpan(participantId: participant, kind: .lost, fromMs: loss.fromMs, toMs: max(loss.toMs, loss.fromMs + 1),
                                  outputMs: timeline.outputMs(ofSession: loss.fromMs), label: "\(loss.trackId): \(loss.message)"))
        }
        for turn in document.plan.speakers?.turns ?? [] where seen.contains(turn.participantId) {
            let from = timeline.sessionMs(ofOutput: turn.fromMs), to = timeline.sessionMs(ofOutput: turn.toMs)
            let name = lanes.first { $0.participantId == turn.participantId }?.name ?? turn.participantId
            spans.append(PageSpan(participantId: turn.participantId, kind: .speaking, fromMs: from, toMs: max(to, from + 1),
                                  outputMs: turn.fromMs, label: "\(name) speaking"))
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
        var invitationMarks: [(kind: Marker.Kind, atMs: Int, label: String)] = []
        for invitation in timeline.invitations {
            let sender = invitation.senderName ?? invitation.senderId
            invitationMarks.append((.requested, invitation.requestedAtMs, "\(sender) invited \(invitation.receiverId) on stage"))
            if let resolved = invitation.resolvedAtMs, let kind = Marker.Kind(rawValue: invitation.outcome.rawValue), kind != .requested {
                invitationMarks.append((kind, resolved, "\(invitation.receiverId) \(invitation.outcome.rawValue) \(sender)'s invitation"))
            }
        }
        if invitationMarks.count > 1000 {
            var counts: [String: (kind: Marker.Kind, atMs: Int, count: Int)] = [:]
            for mark in invitationMarks {
                let bucket = mark.atMs / bucketMs
                counts["\(mark.kind.rawValue) \(bucket)", default: (mark.kind, bucket * bucketMs, 0)].count += 1
            }
            invitationMarks = counts.values.sorted { ($0.atMs, $0.kind.rawValue) < ($1.atMs, $1.kind.rawValue) }
                .map { ($0.kind, $0.atMs, "\($0.count) invitations \($0.kind == .requested ? "made" : $0.kind.rawValue)") }
        }
        for mark in invitationMarks {
            markers.append(Marker(participantId: nil, kind: mark.kind, atMs: mark.atMs, outputMs: timeline.outputMs(ofSession: mark.atMs), label: mark.label))
        }
        self.lanes = lanes
        self.spans = spans
        self.markers = markers
        durationMs = timeline.output.map { $0.sessionDurationMs } ?? timeline.durationMs
    }
}

extension StageTimeline {
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
