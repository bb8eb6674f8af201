import Foundation
import Testing
@testable import StageMixLayout

/// Numbers at and beyond docs/limits.md in a layout file: each is one problem at its JSON path,
/// never a trap in the grid arithmetic, and the largest allowed values load.
@Suite struct LayoutLimitsTests {
    static let int64Max = "9223372036854775807"
    static let beyondDouble = "9007199254740993" // 2^53 + 1
    static let huge = "4611686018427387904" // 2^62

    @Test(arguments: [
        (["maxRows": huge, "maxColumns": huge], ["$.regions[0].maxRows", "$.regions[0].maxColumns"]),
        (["maxRows": int64Max, "limit": nil], ["$.regions[0].maxRows"]),
        (["maxColumns": "65"], ["$.regions[0].maxColumns"]),
        (["gap": huge], ["$.regions[0].gap"]),
        (["gap": "8193"], ["$.regions[0].gap"]),
        (["z": int64Max], ["$.regions[0].z"]),
        (["z": "-9223372036854775808"], ["$.regions[0].z"]),
        (["z": "1001"], ["$.regions[0].z"]),
        (["skip": beyondDouble], ["$.regions[0].skip"]),
        (["skip": "10001"], ["$.regions[0].skip"]),
        (["limit": huge], ["$.regions[0].limit"]),
        (["limit": "4097"], ["$.regions[0].limit"]),
        (["x": "1e400"], ["$.regions[0].x"]),
        (["width": "-1e400"], ["$.regions[0].width"]),
    ] as [([String: String?], [String])])
    func regionExtremes(changes: [String: String?], paths: [String]) {
        let problems = ValidationTests.problems(region: changes)
        #expect(problems.map { String($0.dropFirst("\(ValidationTests.file): ".count).prefix { $0 != ":" }) } == paths, "\(problems)")
    }

    @Test(arguments: [
        (#"{"width": 4611686018427387904, "height": 720, "fps": 30}"#, ["$.canvas.width"]),
        (#"{"width": 1280, "height": 9223372036854775807, "fps": 30}"#, ["$.canvas.height"]),
        (#"{"width": 8194, "height": 720, "fps": 30}"#, ["$.canvas.width"]),
        (#"{"width": 1280, "height": 720, "fps": 9007199254740993}"#, ["$.canvas.fps"]),
        (#"{"width": 1280, "height": 720, "fps": 121}"#, ["$.canvas.fps"]),
        (#"{"width": 1280, "height": 720, "fps": -30}"#, ["$.canvas.fps"]),
    ])
    func canvasExtremes(canvas: String, paths: [String]) {
        let problems = ValidationTests.problems(ValidationTests.layout(canvas: canvas))
        #expect(problems.map { String($0.dropFirst("\(ValidationTests.file): ".count).prefix { $0 != ":" }) } == paths, "\(problems)")
    }

    @Test func tooManyRegions() {
        let regions = (0...LayoutLimits.maxRegions).map { ValidationTests.region(["name": "\"r\($0)\""]) }
        #expect(ValidationTests.problems(ValidationTests.layout(regions: regions))
            == ["\(ValidationTests.file): $.regions: expected at most 64 regions, found 65"])
    }

    @Test func theLargestValuesLoad() throws {
        let json = ValidationTests.layout(
            canvas: #"{"width": 8192, "height": 8192, "fps": 120}"#,
            regions: [ValidationTests.region(["maxRows": "64", "maxColumns": "64", "gap": "0", "z": "-1000", "skip": "10000", "limit": "4096"])])
        let layout = try Layout.parse(Data(json.utf8), file: ValidationTests.file)
        #expect(layout.canvas == CanvasSize(width: 8192, height: 8192) && layout.fps == 120)
        #expect(layout.regions[0].capacity == 4096)
    }

    @Test func aRegionBuiltInCodeWithAnEnormousGridDoesNotOverflow() {
        let region = Region(name: "r", x: 0, y: 0, width: 1, height: 1, maxRows: Int.max, maxColumns: Int.max)
        #expect(region.capacity == Int.max)
    }
}
