import Testing
@testable import StageMixLayout

@Suite("Built-in layouts")
struct BuiltinLayoutTests {
    /// How many tiles each layout places for `cameras` cameras with or without one screen share,
    /// written out from the layouts' descriptions rather than read back from their JSON.
    static let expectedCount: [String: @Sendable (_ cameras: Int, _ screenShare: Bool) -> Int] = [
        "grid": { cameras, share in min(cameras + (share ? 1 : 0), 25) },
        // While someone shares a screen, every layout shows it in its main area and the cameras beside it.
        "spotlight": { cameras, share in share ? 1 + min(cameras, 6) : min(cameras, 7) },
        "speaker": { cameras, share in share ? 1 + min(cameras, 6) : min(cameras, 7) },
        "sidebar": { cameras, share in share ? 1 + min(cameras, 4) : min(cameras, 5) },
        "pip": { cameras, share in share ? 1 + min(cameras, 1) : min(cameras, 2) },
        "screen-share": { cameras, share in share ? 1 + min(cameras, 5) : min(cameras, 25) },
    ]

    @Test func letterboxesAndPillarboxesAreTheLayoutsBackground() {
        // A region's background is what shows around a fitted picture and in its gaps: never a black bar.
        for name in Layout.builtinNames {
            let layout = builtin(name)
            for region in layout.regions {
                if region.fit == .contain {
                    #expect(region.background == layout.background, "\(name).\(region.name)'s bars are \(region.background), the canvas is \(layout.background)")
                }
                #expect(region.background != RGBColor(r: 0, g: 0, b: 0), "\(name).\(region.name) paints black bars")
            }
        }
    }

    @Test func theSixAreBuiltIn() {
        #expect(Set(Layout.builtinNames) == Set(Self.expectedCount.keys))
        #expect(Layout.builtin(named: Layout.defaultName)?.name == "grid")
        #expect(Layout.builtin(named: "nope") == nil)
        for name in Layout.builtinNames {
            let layout = builtin(name)
            #expect(layout.name == name)
            #expect(layout.canvas == CanvasSize(width: 1280, height: 720) && layout.fps == 30)
        }
    }

    @Test("tiles are even, inside the canvas and their region, apart by the gap, and as many as expected",
          arguments: ["grid", "spotlight", "speaker", "sidebar", "pip", "screen-share"])
    func invariants(name: String) throws {
        let expected = try #require(Self.expectedCount[name])
        for size in [CanvasSize(width: 1280, height: 720), CanvasSize(width: 1920, height: 1080), CanvasSize(width: 640, height: 360)] {
            let layout = builtin(name).resized(to: size)
            let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
            for cameras in 0...25 {
                for screenShare in [false, true] {
                    let arrangement = layout.arrange(stage(cameras: cameras, screenShare: screenShare))
                    let context = "\(name) at \(size) with \(cameras) cameras, screen share \(screenShare)"
                    #expect(arrangement.tiles.count == expected(cameras, screenShare), "\(context)")
                    #expect(Set(arrangement.tiles.map(\.source)).count == arrangement.tiles.count, "a source placed twice: \(context)")
                    for fill in arrangement.regions {
                        #expect(fill.rect.isEven && whole.contains(fill.rect), "\(fill.region) \(fill.rect): \(context)")
                    }
                    for tile in arrangement.tiles {
                        let fill = try #require(arrangement.regions.first { $0.region == tile.region })
                        #expect(tile.rect.isEven && !tile.rect.isEmpty, "\(tile.rect): \(context)")
                        #expect(fill.rect.contains(tile.rect), "\(tile.rect) outside \(fill.rect): \(context)")
                    }
                    try checkSpacing(arrangement, layout: layout, context: context)
                }
            }
        }
    }

    private func checkSpacing(_ arrangement: Arrangement, layout: Layout, context: String) throws {
        for region in layout.regions {
            let tiles = arrangement.tiles.filter { $0.region == region.name }.map(\.rect)
            for (index, a) in tiles.enumerated() {
                for b in tiles[(index + 1)...] {
                    let apart = a.maxX + region.gap <= b.x || b.maxX + region.gap <= a.x
                        || a.maxY + region.gap <= b.y || b.maxY + region.gap <= a.y
                    #expect(apart, "\(a) and \(b) in \(region.name) closer than \(region.gap): \(context)")
                }
            }
        }
    }

    @Test func arrangingIsDeterministicWhateverTheInputOrder() {
        let sources = stage(cameras: 9, screenShare: true)
        for name in Layout.builtinNames {
            let layout = builtin(name)
            #expect(layout.arrange(sources) == layout.arrange(sources.reversed()))
            #expect(layout.arrange(sources) == layout.arrange(sources.shuffled()))
        }
    }

    @Test func spotlightShowsTheEarliestPinnedLarge() throws {
        let sources = [
            LayoutSource(participantId: "late", pinnedAtMs: 9000, stageOrder: 0),
            LayoutSource(participantId: "first", pinnedAtMs: 100, stageOrder: 2),
            LayoutSource(participantId: "second", pinnedAtMs: 500, stageOrder: 1),
            LayoutSource(participantId: "tied", pinnedAtMs: 500, stageOrder: 3),
        ]
        let tiles = builtin("spotlight").arrange(sources).tiles
        let main = try #require(tiles.first { $0.region == "spotlight" })
        #expect(main.source.participantId == "first")
        #expect(main.rect == rect(128, 0, 1024, 576))
        #expect(tiles.filter { $0.region == "strip" }.map(\.source.participantId) == ["second", "tied", "late"])
        #expect(tiles.filter { $0.region == "strip" }.allSatisfy { $0.rect.y >= 576 && $0.rect.width < main.rect.width })
    }

    @Test func sidebarPutsTheSpeakerLeftAndTheOthersInAColumn() throws {
        let tiles = builtin("sidebar").arrange(stage(cameras: 4)).tiles
        let speaker = try #require(tiles.first { $0.region == "speaker" })
        #expect(speaker.source.participantId == "p0")
        #expect(speaker.rect == rect(0, 90, 960, 540))
        let column = tiles.filter { $0.region == "column" }
        #expect(column.map(\.source.participantId) == ["p1", "p2", "p3"])
        #expect(column.allSatisfy { $0.rect.x >= 960 })
        #expect(Set(column.map(\.rect.x)).count == 1)
        #expect(column.map(\.rect.y) == column.map(\.rect.y).sorted())
    }

    @Test func pipInsetsTheSecondAboveTheFirst() {
        let arrangement = builtin("pip").arrange(stage(cameras: 3))
        #expect(arrangement.tiles.map(\.source.participantId) == ["p0", "p1"])
        #expect(arrangement.tiles.map(\.rect) == [rect(0, 0, 1280, 720), rect(934, 512, 320, 180)])
        #expect(arrangement.tiles.map(\.z) == [0, 1])
        #expect(arrangement.regions.map(\.region) == ["main", "inset"])

        let alone = builtin("pip").arrange(stage(cameras: 1))
        #expect(alone.regions.map(\.region) == ["main"], "an empty inset must not paint over the main picture")
    }

    @Test func screenShareTakesTheMainRegionWhenPresent() throws {
        let layout = builtin("screen-share")
        let without = layout.arrange(stage(cameras: 3))
        #expect(Set(without.tiles.map(\.region)) == ["grid"])
        #expect(without.tiles.map(\.rect) == builtin("grid").arrange(stage(cameras: 3)).tiles.map(\.rect))

        let with = layout.arrange(stage(cameras: 3, screenShare: true))
        let share = try #require(with.tiles.first { $0.source.kind == .screenShare })
        #expect(share.region == "share" && share.fit == .contain)
        #expect(share.rect == rect(0, 0, 1024, 720))
        let cameras = with.tiles.filter { $0.source.kind == .camera }
        #expect(cameras.count == 3 && cameras.allSatisfy { $0.region == "cameras" && $0.rect.x >= 1024 })
        #expect(!with.regions.contains { $0.region == "grid" })
    }

    @Test func drawingOrderIsByZ() {
        let arrangement = builtin("pip").arrange(stage(cameras: 2).reversed())
        #expect(arrangement.tiles.map(\.z) == arrangement.tiles.map(\.z).sorted())
        #expect(arrangement.background.hex == "#101217")
    }
}
