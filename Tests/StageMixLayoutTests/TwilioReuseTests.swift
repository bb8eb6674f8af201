import Testing
@testable import StageMixLayout

/// Twilio's five-track walk-through ("Understanding Reuse"): tracks 0 to 4 in one region of 1x1, of
/// 1x2 and without limits, under each `reuse`. The room's timeline (seconds) has what Twilio's figure
/// and text say: track 0 published twice with a gap, track 1 starting while 0 plays, and 2, 3 and 4
/// overlapping, the most at once (3) while all three are published, track 2 ending first of them.
@Suite("Twilio reuse walk-through")
struct TwilioReuseTests {
    static let room: [(String, [(Int, Int)])] = [
        ("t0", [(0, 10), (20, 30)]), ("t1", [(5, 15)]), ("t2", [(35, 60)]), ("t3", [(40, 70)]), ("t4", [(45, 75)]),
    ]

    static var sources: [TwilioVideoSource] {
        room.map { name, spans in
            TwilioVideoSource(trackId: name, identity: TwilioSourceIdentity(trackName: name, recordingSid: "RT" + name,
                                                                            trackSid: "MT" + name, participantSid: "PA" + name),
                              spans: spans.map { TwilioVideoSource.Span(fromMs: $0.0 * 1000, toMs: $0.1 * 1000) })
        }
    }

    /// `cell track from-to` in seconds, by start, then cell.
    static func placement(rows: Int?, columns: Int?, reuse: TwilioReuse) -> (grid: String, cells: [String]) {
        let region = TwilioRegion(name: "r", width: 640, height: 480, maxColumns: columns, maxRows: rows, reuse: reuse,
                                  videoSources: [TwilioSourcePattern("*")!])
        let plan = TwilioCellPlanner.plan(region, sources: sources)
        return ("\(plan.grid.rows)x\(plan.grid.columns)",
                plan.assignments.map { "c\($0.cell) \($0.trackId) \($0.fromMs / 1000)-\($0.toMs / 1000)" })
    }

    @Test func oneCellWithReuseNone() {
        // Track 0 keeps the cell; in its gap the cell stays black, and nothing else is ever shown.
        let result = Self.placement(rows: 1, columns: 1, reuse: .none)
        #expect(result.grid == "1x1")
        #expect(result.cells == ["c0 t0 0-10", "c0 t0 20-30"])
    }

    @Test func oneCellWithShowOldest() {
        // The first source keeps the cell until it ends; the end of 2 lets 3 in, the end of 3 lets 4 in.
        let result = Self.placement(rows: 1, columns: 1, reuse: .showOldest)
        #expect(result.cells == ["c0 t0 0-10", "c0 t1 10-15", "c0 t0 20-30", "c0 t2 35-60", "c0 t3 60-70", "c0 t4 70-75"])
    }

    @Test func oneCellWithShowNewest() {
        // Track 1 is stacked over 0 while it plays; 2, 3 and 4 each take the cell as their media starts.
        let result = Self.placement(rows: 1, columns: 1, reuse: .showNewest)
        #expect(result.cells == ["c0 t0 0-5", "c0 t1 5-15", "c0 t0 20-30", "c0 t2 35-40", "c0 t3 40-45", "c0 t4 45-75"])
    }

    @Test func twoCellsWithReuseNone() {
        // 0 and 1 take the two fresh cells; 2, 3 and 4 never show.
        let result = Self.placement(rows: 1, columns: 2, reuse: .none)
        #expect(result.grid == "1x2")
        #expect(result.cells == ["c0 t0 0-10", "c1 t1 5-15", "c0 t0 20-30"])
    }

    @Test func twoCellsWithShowNewest() {
        // 2 and 3 take the idle cells; 4 covers the used cell whose media ends first, 2's.
        let result = Self.placement(rows: 1, columns: 2, reuse: .showNewest)
        #expect(result.cells == ["c0 t0 0-10", "c1 t1 5-15", "c0 t0 20-30", "c0 t2 35-45", "c1 t3 40-70", "c0 t4 45-75"])
    }

    @Test func twoCellsWithShowOldest() {
        // 2 and 3 keep their cells; 4 waits for the first to go idle, when 2 ends.
        let result = Self.placement(rows: 1, columns: 2, reuse: .showOldest)
        #expect(result.cells == ["c0 t0 0-10", "c1 t1 5-15", "c0 t0 20-30", "c0 t2 35-60", "c1 t3 40-70", "c0 t4 60-75"])
    }

    @Test func unconstrainedWithReuseNoneNeedsACellPerTrack() {
        let result = Self.placement(rows: nil, columns: nil, reuse: .none)
        #expect(result.grid == "2x3")
        #expect(result.cells == ["c0 t0 0-10", "c1 t1 5-15", "c0 t0 20-30", "c2 t2 35-60", "c3 t3 40-70", "c4 t4 45-75"])
    }

    @Test(arguments: [TwilioReuse.showOldest, .showNewest])
    func unconstrainedWithReuseIsSizedForTheMostAtOnce(_ reuse: TwilioReuse) {
        // Three at once (2, 3 and 4): a 2x2 grid, and both modes place the same, since no cell is ever short.
        let result = Self.placement(rows: nil, columns: nil, reuse: reuse)
        #expect(result.grid == "2x2")
        #expect(result.cells == ["c0 t0 0-10", "c1 t1 5-15", "c0 t0 20-30", "c0 t2 35-60", "c1 t3 40-70", "c2 t4 45-75"])
    }

    @Test func excludedCellsAreSkippedInFillOrder() {
        let region = TwilioRegion(name: "chess", width: 1260, height: 720, maxColumns: 3, maxRows: 3, cellsExcluded: [1, 3, 5, 7],
                                  reuse: .showNewest, videoSources: [TwilioSourcePattern("*")!])
        let plan = TwilioCellPlanner.plan(region, sources: Self.sources)
        // Three at once need three usable cells: 2x2 less 1 and 3 has two, 2x3 less 1, 3 and 5 has three.
        #expect(plan.grid == TwilioGrid(rows: 2, columns: 3))
        #expect(plan.assignments.map(\.cell) == [0, 2, 0, 0, 2, 4], "\(plan.assignments)")
    }

    @Test func sourcesAreChosenByNameWildcardAndSid() {
        let identity = TwilioSourceIdentity(trackName: "student-cam", recordingSid: "RT1", trackSid: "MT1", participantSid: "PA1")
        let matching = ["student*", "*-cam", "student-cam", "RT1", "MT1", "PA1", "*"]
        for text in matching { #expect(TwilioSourcePattern(text)!.matches(identity), "\(text)") }
        for text in ["teacher*", "*-screen", "student", "RT2", "Student-cam"] { #expect(!TwilioSourcePattern(text)!.matches(identity), "\(text)") }
        for text in ["", "stu*dent", "**", "*student*"] { #expect(TwilioSourcePattern(text) == nil, "\(text)") }
        let region = TwilioRegion(name: "r", width: 640, height: 480, videoSources: [TwilioSourcePattern("t*")!],
                                  videoSourcesExcluded: [TwilioSourcePattern("RTt2")!, TwilioSourcePattern("PAt4")!])
        let plan = TwilioCellPlanner.plan(region, sources: Self.sources)
        #expect(Set(plan.assignments.map(\.trackId)) == ["t0", "t1", "t3"])
    }
}
