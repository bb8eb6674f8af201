import Testing
@testable import StageMixLayout

@Suite("Fit geometry")
struct FitGeometryTests {
    let hd = CanvasSize(width: 1280, height: 720)

    @Test func containLetterboxesWideContentInASquare() {
        // 1280x720 scaled by 400/1280 = 0.3125 is 400x225, halfway between 224 and 226: the smaller; (400 - 224) / 2 = 88.
        let fit = FitGeometry.fit(content: hd, into: rect(0, 0, 400, 400), mode: .contain)
        #expect(fit.destination == rect(0, 88, 400, 224))
        #expect(fit.sourceCrop == rect(0, 0, 1280, 720))
    }

    @Test func coverCropsTheCentreOfWideContent() {
        // Scale 400/720: the visible part is 720x720, (1280 - 720) / 2 = 280 from the left.
        let fit = FitGeometry.fit(content: hd, into: rect(0, 0, 400, 400), mode: .cover)
        #expect(fit.destination == rect(0, 0, 400, 400))
        #expect(fit.sourceCrop == rect(280, 0, 720, 720))
    }

    @Test func containIsOffsetByTheTile() {
        let fit = FitGeometry.fit(content: hd, into: rect(100, 50, 400, 400), mode: .contain)
        #expect(fit.destination == rect(100, 138, 400, 224))
    }

    @Test func portraitContentPillarboxesOrCropsVertically() {
        let portrait = CanvasSize(width: 720, height: 1280)
        let contain = FitGeometry.fit(content: portrait, into: rect(0, 0, 636, 358), mode: .contain)
        // 358/1280 scales 720 to 201.4, nearest even 202; (636 - 202) / 2 = 217, even 216.
        #expect(contain.destination == rect(216, 0, 202, 358))
        let cover = FitGeometry.fit(content: portrait, into: rect(0, 0, 636, 358), mode: .cover)
        // 636/720 makes 358 rows from 405.3 source rows, rounded to 406; (1280 - 406) / 2 = 437 -> 436.
        #expect(cover.sourceCrop == rect(0, 436, 720, 406))
        #expect(cover.destination == rect(0, 0, 636, 358))
    }

    @Test func nearlyFittingContentFillsTheTileInsteadOfLeavingABar() {
        // 16:9 into the 2-up grid's 636x358 tile: 357.75 rows exactly, nearest even 358, so no 2-pixel bar.
        let fit = FitGeometry.fit(content: CanvasSize(width: 640, height: 360), into: rect(4, 180, 636, 358), mode: .contain)
        #expect(fit.destination == rect(4, 180, 636, 358))
    }

    @Test func exactFitsStayExact() {
        let full = FitGeometry.fit(content: CanvasSize(width: 1920, height: 1080), into: rect(0, 0, 1280, 720), mode: .contain)
        #expect(full.destination == rect(0, 0, 1280, 720))
        let cover = FitGeometry.fit(content: CanvasSize(width: 1920, height: 1080), into: rect(0, 0, 1280, 720), mode: .cover)
        #expect(cover.sourceCrop == rect(0, 0, 1920, 1080))
    }

    @Test func oddContentGivesEvenRectangles() {
        for mode in Fit.allCases {
            let fit = FitGeometry.fit(content: CanvasSize(width: 1279, height: 719), into: rect(2, 2, 302, 170), mode: mode)
            #expect(fit.destination.isEven && fit.sourceCrop.isEven)
            #expect(rect(2, 2, 302, 170).contains(fit.destination))
            #expect(rect(0, 0, 1279, 719).contains(fit.sourceCrop))
        }
    }

    @Test func emptyContentDrawsNothing() {
        let fit = FitGeometry.fit(content: CanvasSize(width: 0, height: 0), into: rect(0, 0, 400, 400), mode: .contain)
        #expect(fit.destination.isEmpty)
    }
}

@Suite("Colours")
struct RGBColorTests {
    @Test func parsesAndPrintsHex() throws {
        let color = try RGBColor(hex: "#0a1B2c")
        #expect(color == RGBColor(r: 0x0A, g: 0x1B, b: 0x2C))
        #expect(color.hex == "#0A1B2C")
    }

    @Test("rejects what is not #RRGGBB", arguments: ["0A1B2C", "#0A1B2", "#0A1B2C0", "#GG0000", "#+12345", "", "#０A1B2C"])
    func rejects(text: String) {
        #expect(throws: RGBColor.InvalidColor.self) { try RGBColor(hex: text) }
    }
}
