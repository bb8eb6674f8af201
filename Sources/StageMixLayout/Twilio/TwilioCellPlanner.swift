/// Twilio's placement rules for one region, replayed over the composition's time: the grid is sized
/// once (every source it takes with `reuse: none`, else the most whose media is active at once), then
/// sources take cells left to right, top to bottom, in the order their media starts, as `reuse` says.
///
/// Where Twilio's documentation is silent: sources starting at the same instant go in the order they
/// are given (the capture's track order); media ending at an instant frees its cell before media
/// starting then takes one; a source whose media comes back after a gap takes its own cell again if
/// nobody else shows there (with `none`, its cell waits for it), else it is placed as a newcomer; a
/// source covered under `show_newest` shows again when the one on top ends, if its media is still
/// active; sources waiting under `show_oldest` take freed cells oldest first.
public struct TwilioCellPlanner {
    private let region: TwilioRegion
    private let cellOrder: [Int]
    /// Per cell: the sources in it, bottom to top; the top one is shown.
    private var stacks: [Int: [Int]] = [:]
    /// Cells that have shown a source: no longer fresh.
    private var everUsed: Set<Int> = []
    /// The cell each source last had.
    private var home: [Int: Int] = [:]
    /// Sources waiting for a cell (`show_oldest`), with when their media started.
    private var waiting: [(source: Int, sinceMs: Int)] = []
    private var shownSince: [Int: (source: Int, fromMs: Int)] = [:]
    private var assignments: [TwilioCellAssignment] = []
    private let sources: [TwilioVideoSource]

    /// The region's grid and assignments for `sources` (those it does not take are left out).
    public static func plan(_ region: TwilioRegion, sources all: [TwilioVideoSource]) -> TwilioRegionPlan {
        let sources = all.filter { region.takes($0.identity) && !$0.spans.isEmpty }
        let needed = region.reuse == .none ? sources.count : mostAtOnce(sources)
        let grid = TwilioGrid.sized(for: needed, maxRows: region.maxRows, maxColumns: region.maxColumns,
                                    excluded: region.cellsExcluded)
        var planner = TwilioCellPlanner(region: region, sources: sources,
                                        cellOrder: (0..<grid.cells).filter { !region.cellsExcluded.contains($0) })
        planner.replay()
        let ordered = planner.assignments.sorted { ($0.fromMs, $0.cell) < ($1.fromMs, $1.cell) }
        return TwilioRegionPlan(region: region, grid: grid, assignments: ordered)
    }

    /// The most sources with active media at one instant (an end at t before a start at t).
    static func mostAtOnce(_ sources: [TwilioVideoSource]) -> Int {
        var changes: [(atMs: Int, change: Int)] = []
        for source in sources {
            for span in source.spans {
                changes.append((span.fromMs, 1))
                changes.append((span.toMs, -1))
            }
        }
        changes.sort { $0.atMs != $1.atMs ? $0.atMs < $1.atMs : $0.change < $1.change }
        var active = 0, most = 0
        for entry in changes {
            active += entry.change
            most = max(most, active)
        }
        return most
    }

    private init(region: TwilioRegion, sources: [TwilioVideoSource], cellOrder: [Int]) {
        self.region = region
        self.sources = sources
        self.cellOrder = cellOrder
    }

    private mutating func replay() {
        // Ends before starts at one instant; starts in media order, then in the sources' order.
        var events: [Event] = []
        for (index, source) in sources.enumerated() {
            for span in source.spans {
                events.append(Event(atMs: span.fromMs, starts: true, source: index))
                events.append(Event(atMs: span.toMs, starts: false, source: index))
            }
        }
        events.sort { ($0.atMs, $0.starts ? 1 : 0, $0.source) < ($1.atMs, $1.starts ? 1 : 0, $1.source) }
        for event in events {
            if event.starts { start(event.source, atMs: event.atMs) } else { end(event.source, atMs: event.atMs) }
        }
    }

    /// A source's media starting or ending.
    private struct Event {
        var atMs: Int
        var starts: Bool
        var source: Int
    }

    private mutating func start(_ source: Int, atMs: Int) {
        if let own = home[source], stacks[own, default: []].isEmpty {
            place(source, in: own, atMs: atMs)
            return
        }
        if region.reuse == .none, home[source] != nil { return }
        if let cell = freeCell() {
            place(source, in: cell, atMs: atMs)
            return
        }
        switch region.reuse {
        case .none: return
        case .showOldest: waiting.append((source, atMs))
        case .showNewest:
            // The used cell whose shown media ends first; the first such cell on a tie.
            var best: (endMs: Int, cell: Int)?
            for cell in cellOrder {
                guard let top = stacks[cell]?.last else { continue }
                let endMs = currentEnd(of: top, atMs: atMs)
                if best.map({ endMs < $0.endMs }) ?? true { best = (endMs, cell) }
            }
            if let best { place(source, in: best.cell, atMs: atMs) }
        }
    }

    private mutating func end(_ source: Int, atMs: Int) {
        waiting.removeAll { $0.source == source }
        guard let cell = stacks.first(where: { $0.value.contains(source) })?.key else { return }
        stacks[cell]!.removeAll { $0 == source }
        show(cell, atMs: atMs)
        if stacks[cell]!.isEmpty, region.reuse == .showOldest, !waiting.isEmpty {
            let next = waiting.removeFirst()
            place(next.source, in: cell, atMs: atMs)
        }
    }

    /// The first cell, left to right and top to bottom, that is fresh or idle (with `none`, fresh only).
    private func freeCell() -> Int? {
        cellOrder.first { cell in
            guard (stacks[cell] ?? []).isEmpty else { return false }
            if region.reuse == .none { return !everUsed.contains(cell) }
            // An idle cell waits for its source only under `none`; otherwise any idle cell will do.
            return true
        }
    }

    private mutating func place(_ source: Int, in cell: Int, atMs: Int) {
        stacks[cell, default: []].append(source)
        everUsed.insert(cell)
        home[source] = cell
        show(cell, atMs: atMs)
    }

    /// Closes the cell's shown stretch if its top changed, and opens the new one.
    private mutating func show(_ cell: Int, atMs: Int) {
        let top = stacks[cell]?.last
        if let current = shownSince[cell], current.source == top { return }
        if let current = shownSince[cell], current.fromMs < atMs {
            assignments.append(TwilioCellAssignment(region: region.name, cell: cell, trackId: sources[current.source].trackId,
                                                    fromMs: current.fromMs, toMs: atMs))
        }
        shownSince[cell] = top.map { ($0, atMs) }
    }

    /// When the media of `source` that is active at `atMs` ends.
    private func currentEnd(of source: Int, atMs: Int) -> Int {
        sources[source].spans.first { $0.fromMs <= atMs && atMs < $0.toMs }?.toMs ?? atMs
    }
}
