import Foundation
import Testing
@testable import StageMixLayout

@Suite("Embedded layouts")
struct EmbeddedLayoutTests {
    static let directory = repositoryRoot.appendingPathComponent("Layouts").resolvingSymlinksInPath()

    static func layoutFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("every Layouts/*.json is embedded byte for byte (run scripts/embed-layouts after editing one)")
    func embeddedMatchesFiles() throws {
        let files = try Self.layoutFiles()
        #expect(files.map { $0.deletingPathExtension().lastPathComponent } == BuiltinLayouts.files.map(\.name))
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let embedded = try #require(BuiltinLayouts.files.first { $0.name == name })
            #expect(Data(embedded.json.utf8) == (try Data(contentsOf: file)), "\(name) differs from Layouts/\(name).json")
        }
    }

    @Test func filesLoadToTheBuiltins() throws {
        for file in try Self.layoutFiles() {
            let name = file.deletingPathExtension().lastPathComponent
            #expect(try Layout.load(contentsOf: file) == Layout.builtin(named: name))
            #expect(try Layout.resolve(file.path) == Layout.builtin(named: name))
        }
        #expect(try Layout.resolve("sidebar") == Layout.builtin(named: "sidebar"))
    }

    @Test func encodingWritesTheFileFormatBack() throws {
        for name in Layout.builtinNames {
            let layout = builtin(name)
            let data = try JSONEncoder().encode(layout)
            #expect(try Layout.parse(data, file: name) == layout)
            #expect(try JSONDecoder().decode(Layout.self, from: data) == layout)
        }
    }
}

@Suite("Resizing")
struct ResizeTests {
    @Test func regionsKeepTheirFractionsAndGapsScale() {
        let big = builtin("grid").resized(to: CanvasSize(width: 1920, height: 1080), fps: 60)
        #expect(big.canvas == CanvasSize(width: 1920, height: 1080) && big.fps == 60)
        #expect(big.regions[0].gap == 12)
        #expect(builtin("grid").resized(to: CanvasSize(width: 640, height: 360), fps: nil).fps == 30)
        #expect(builtin("grid").resized(to: CanvasSize(width: 640, height: 360), fps: nil).regions[0].gap == 4)
        #expect(big.arrange(stage(cameras: 1)).tiles.map(\.rect) == [rect(0, 0, 1920, 1080)])
        #expect(big.arrange(stage(cameras: 2)).tiles.map(\.rect) == [rect(0, 272, 954, 536), rect(966, 272, 954, 536)])
    }

    @Test func doublingTheCanvasRoughlyDoublesEveryTile() {
        let size = CanvasSize(width: 2560, height: 1440)
        for name in Layout.builtinNames {
            let small = builtin(name).arrange(stage(cameras: 6, screenShare: true)).tiles
            let large = builtin(name).resized(to: size).arrange(stage(cameras: 6, screenShare: true)).tiles
            #expect(small.map(\.source) == large.map(\.source))
            for (a, b) in zip(small, large) {
                let close = [(a.rect.x, b.rect.x), (a.rect.y, b.rect.y), (a.rect.width, b.rect.width), (a.rect.height, b.rect.height)]
                    // Each size, gap and centring offset rounds to even on its own, so allow a few pixels plus 1%.
                    .allSatisfy { abs(2 * $0.0 - $0.1) <= 8 + $0.1 / 100 }
                #expect(close, "\(name): \(a.rect) at 1280x720 vs \(b.rect) at 2560x1440")
            }
        }
    }
}
