import Foundation
import StageMixLayout

/// A stage that holds more cameras (or screen shares) than the layout has tiles for: the regions
/// that take them are full, and the rest are not seen. The operator is told once per limit, with
/// the peak, the stretches and who was left out, not left to count tiles in the video.
///
/// A kind of source that no region in use takes at all (a screen share in a cameras-only layout)
/// is not a matter of room: `UnshownScreenShares` speaks of shares, and a layout that shows no
/// camera while a share is up chose to.
enum CrowdedStage {
    /// Names listed before "and N more", so that a crowd gives one readable line.
    static let namesListed = 10
    /// Stretches listed before "and N more".
    static let stretchesListed = 5

    /// A stretch of output time with sources left out, under one set of full regions.
    private struct Stretch {
        var fromMs: Int
        var toMs: Int
        var onStage: Int
        var shown: Int
        var leftOut: [LayoutSource]
    }

    /// One warning per set of regions that ran out of room (a layout whose regions change with a
    /// screen share can fill up both ways).
    static func warnings(timeline: StageTimeline, plan: CompositionPlan, layout: Layout) -> [String] {
        var stretches: [[String]: [Stretch]] = [:]
        var limitsInOrder: [[String]] = []
        var names: [String: String] = [:]
        for segment in timeline.segments where segment.endMs > segment.startMs {
            let people = segment.onStage.filter(\.hasTile)
            var sources = people.map { LayoutSource(participantId: $0.participantId, kind: .camera,
                                                    pinnedAtMs: $0.pinnedAtMs, stageOrder: $0.stageOrder) }
            sources += people.filter { $0.track(source: .screenShare) != nil }
                .map { LayoutSource(participantId: $0.participantId, kind: .screenShare, pinnedAtMs: $0.pinnedAtMs, stageOrder: $0.stageOrder) }
            let sharing = sources.contains { $0.kind == .screenShare }
            let inUse = layout.regions.filter { $0.when.holds(screenSharePresent: sharing) }
            for person in people { names[person.participantId] = person.name }
            for interval in plan.intervals.overlapping(from: segment.startMs, to: segment.endMs) {
                let shown = Set(interval.tiles.map { Key($0.participantId, $0.source) })
                let leftOut = sources.filter { source in
                    !shown.contains(Key(source.participantId, source.kind)) && inUse.contains { $0.sources.contains(source.kind) }
                }
                guard !leftOut.isEmpty else { continue }
                let kinds = Set(leftOut.map(\.kind))
                let full = inUse.filter { !$0.sources.filter(kinds.contains).isEmpty }
                let limit = full.map(\.name)
                let stretch = Stretch(fromMs: max(segment.startMs, interval.startMs), toMs: min(segment.endMs, interval.endMs),
                                      onStage: people.count, shown: interval.tiles.filter { kinds.contains($0.source) }.count,
                                      leftOut: leftOut)
                if stretches[limit] == nil { limitsInOrder.append(limit) }
                stretches[limit, default: []].append(stretch)
            }
        }
        return limitsInOrder.map { limit in
            let regions = limit.compactMap { name in layout.regions.first { $0.name == name } }
            return warning(layout: layout.name, regions: regions, stretches: stretches[limit]!, names: names)
        }
    }

    private struct Key: Hashable {
        var participantId: String
        var kind: SourceKind
        init(_ participantId: String, _ kind: SourceKind) { self.participantId = participantId; self.kind = kind }
    }

    private static func warning(layout: String, regions: [Region], stretches: [Stretch], names: [String: String]) -> String {
        // The peak: the most left out at once, from where that first happened for as long as it lasted
        // (a mute elsewhere on stage splits a stretch without changing who is left out).
        let most = stretches.map(\.leftOut.count).max()!
        let first = stretches.firstIndex { $0.leftOut.count == most }!
        var peak = stretches[first]
        for next in stretches[(first + 1)...] {
            guard next.fromMs == peak.toMs, next.leftOut.count == most else { break }
            peak.toMs = next.toMs
        }
        let mostOnStage = stretches.map(\.onStage).max()!
        var merged: [(fromMs: Int, toMs: Int)] = []
        for stretch in stretches {
            if let last = merged.last, last.toMs == stretch.fromMs {
                merged[merged.count - 1].toMs = stretch.toMs
            } else {
                merged.append((stretch.fromMs, stretch.toMs))
            }
        }
        var everyoneLeftOut: [Key] = []
        var seen: Set<Key> = []
        for source in stretches.flatMap(\.leftOut) where seen.insert(Key(source.participantId, source.kind)).inserted {
            everyoneLeftOut.append(Key(source.participantId, source.kind))
        }
        let listed = everyoneLeftOut.prefix(namesListed).map { key in
            let name = names[key.participantId] ?? key.participantId
            return key.kind == .screenShare ? "\(name) (screen)" : name
        }
        let moreNames = everyoneLeftOut.count - listed.count
        let times = merged.prefix(stretchesListed).map { seconds($0.fromMs, $0.toMs) }
        let moreTimes = merged.count - times.count
        let totalMs = merged.reduce(0) { $0 + $1.toMs - $1.fromMs }
        let capacity = regions.map(describe).joined(separator: ", ")
        return "layout \"\(layout)\" cannot show everyone on stage: \(capacity); "
            + "up to \(mostOnStage) were on stage, \(peak.shown) shown and \(peak.leftOut.count) left out at the peak (\(seconds(peak.fromMs, peak.toMs))); "
            + "someone was left out \(times.joined(separator: ", "))"
            + (moreTimes > 0 ? " and \(moreTimes) more stretches" : "")
            + String(format: " (%.1f s in all); ", Double(totalMs) / 1000)
            + "\(everyoneLeftOut.count) left out at some time: \(listed.joined(separator: ", "))"
            + (moreNames > 0 ? " and \(moreNames) more" : "")
    }

    /// `region "stage" shows at most 25 tiles (maxRows 5 x maxColumns 5)`, or `(limit 6)` when the limit is the tighter.
    private static func describe(_ region: Region) -> String {
        let (cells, overflow) = region.maxRows.multipliedReportingOverflow(by: region.maxColumns)
        let bound = if let limit = region.limit, overflow || limit < cells { "limit \(limit)" }
                    else { "maxRows \(region.maxRows) x maxColumns \(region.maxColumns)" }
        return "region \"\(region.name)\" shows at most \(region.capacity) tile\(region.capacity == 1 ? "" : "s") (\(bound))"
    }

    private static func seconds(_ fromMs: Int, _ toMs: Int) -> String {
        String(format: "%.1f to %.1f s", Double(fromMs) / 1000, Double(toMs) / 1000)
    }
}
