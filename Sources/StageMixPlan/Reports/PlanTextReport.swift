import Foundation

/// Renders a timeline, plan and billing as the readable tables `stagemix plan` prints: people by their
/// names, tracks by their names where the capture has them (`trackNames`), and ids always whole.
public enum PlanTextReport {
    public static func render(_ doc: PlanDocument, trackNames: TrackDisplayNames = TrackDisplayNames()) -> String {
        var out: [String] = []
        let plan = doc.plan
        out.append("Session \(plan.sessionId): \(seconds(plan.durationMs)), layout \(plan.layoutName), "
            + "canvas \(plan.canvas.width)x\(plan.canvas.height) @ \(plan.fps) fps")
        for warning in doc.warnings { out.append("warning: \(warning)") }

        out.append("")
        out.append("Stage timeline")
        for segment in doc.timeline.segments {
            let who = segment.onStage.map { p in
                let tracks = p.tracks.map { "\(trackNames.name(of: $0.trackId))\($0.flow == .flowing ? "" : " (\($0.flow.rawValue))")" }
                return "\(p.name)[\(tracks.joined(separator: ", "))]" + (p.notShown.map { " (not shown: \($0))" } ?? "")
            }
            out.append("  \(range(segment.startMs, segment.endMs))  \(who.isEmpty ? "(nobody on stage)" : who.joined(separator: "  "))")
        }
        if !doc.timeline.invitations.isEmpty {
            out.append("")
            out.append("Stage invitations")
            for inv in doc.timeline.invitations {
                var line = "  \(seconds(inv.requestedAtMs))  \(inv.senderName ?? inv.senderId) -> \(inv.receiverId): \(inv.outcome.rawValue)"
                if let at = inv.resolvedAtMs { line += " at \(seconds(at))" }
                if let note = inv.note { line += " (\(note))" }
                out.append(line)
            }
        }

        if let speakers = plan.speakers {
            out.append("")
            out.append("Active speaker (from the microphones)")
            let names = Dictionary(doc.timeline.segments.flatMap(\.onStage).map { ($0.participantId, $0.name) }, uniquingKeysWith: { a, _ in a })
            for turn in speakers.turns {
                out.append("  \(range(turn.fromMs, turn.toMs))  \(names[turn.participantId] ?? turn.participantId)")
            }
            if speakers.turns.isEmpty { out.append("  (nobody spoke)") }
        }

        out.append("")
        out.append("Plan")
        for interval in plan.intervals {
            out.append("  \(range(interval.startMs, interval.endMs))  \(interval.aggregatePixels) px")
            for tile in interval.tiles {
                let r = tile.rect
                var what = tile.show.rawValue
                if let layer = tile.layer {
                    what += " \(tile.trackId.map(trackNames.name(of:)) ?? "") \(layer.quality.rawValue) \(layer.width)x\(layer.height)"
                        + " for \(layer.neededWidth)x\(layer.neededHeight)"
                }
                if let reason = tile.placeholderReason { what += " (\(reason))" }
                out.append("    \(tile.region) z\(tile.z) \(r.width)x\(r.height)+\(r.x)+\(r.y) \(tile.fit.rawValue)  \(tile.name): \(what)")
            }
            let audio = interval.audio.map { trackNames.name(of: $0.trackId) + ($0.muted ? " (muted)" : "") }
            out.append("    audio: \(audio.isEmpty ? "none" : audio.joined(separator: ", "))")
        }

        let billing = doc.billing
        out.append("")
        out.append("Billing: output \(billing.outputWidth)x\(billing.outputHeight) (\(billing.outputTier)), peak \(billing.peakPixels) px")
        let tierWidth = max(10, (billing.minutesPerTier.map(\.tier.count).max() ?? 0) + 2)
        for entry in billing.minutesPerTier {
            out.append("  " + entry.tier.padding(toLength: tierWidth, withPad: " ", startingAt: 0) + "\(entry.minutes) min")
        }
        // Each track by its name and its whole id (by its id alone when it has no other name), in columns as
        // wide as their longest entry: an id is never cut.
        let named = billing.tracks.contains { trackNames.name(of: $0.trackId) != $0.trackId }
        let header = named ? ["track", "id"] : ["track"]
        let rows = billing.tracks.map { named ? [trackNames.name(of: $0.trackId), $0.trackId] : [$0.trackId] }
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        func cells(_ row: [String]) -> String {
            zip(row, widths).map { $0.padding(toLength: $1 + 1, withPad: " ", startingAt: 0) }.joined(separator: " ")
        }
        out.append("  " + cells(header) + "subscribed s   pixel-seconds")
        for (t, row) in zip(billing.tracks, rows) {
            out.append("  " + cells(row) + String(format: "%12.3f   %.0f", t.subscribedSeconds, t.pixelSeconds))
        }
        if let cost = billing.cost, let currency = billing.currency {
            out.append(String(format: "  cost: %.4f %@", cost, currency))
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func seconds(_ ms: Int) -> String { String(format: "%.3fs", Double(ms) / 1000) }
    static func range(_ a: Int, _ b: Int) -> String {
        (seconds(a) + "-" + seconds(b)).padding(toLength: 17, withPad: " ", startingAt: 0)
    }
}
