import Foundation
import Testing
@testable import StageMixLayout

@Suite("Validation")
struct ValidationTests {
    static let file = "Layouts/foo.json"

    /// A valid region with `changes` applied: a value replaces the field's JSON, `nil` removes it.
    static func region(_ changes: [String: String?] = [:]) -> String {
        var fields: [(String, String)] = [
            ("name", #""main""#), ("x", "0"), ("y", "0"), ("width", "1"), ("height", "1"), ("z", "0"),
            ("maxRows", "2"), ("maxColumns", "2"), ("gap", "8"), ("fit", #""cover""#), ("background", ##""#000000""##),
            ("sources", #"["camera"]"#), ("order", #""pinned""#), ("skip", "0"), ("limit", "4"), ("when", #""always""#),
        ]
        fields = fields.compactMap { key, value in
            guard let change = changes[key] else { return (key, value) }
            return change.map { (key, $0) }
        }
        for (key, value) in changes.sorted(by: { $0.key < $1.key }) where !fields.contains(where: { $0.0 == key }) {
            if let value { fields.append((key, value)) }
        }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func layout(canvas: String = ##"{"width": 1280, "height": 720, "fps": 30, "background": "#101010"}"##,
                       regions: [String] = [region()]) -> String {
        #"{"name": "foo", "canvas": \#(canvas), "regions": [\#(regions.joined(separator: ", "))]}"#
    }

    /// The error lines for `json`, or an empty array when it is valid.
    static func problems(_ json: String) -> [String] {
        do {
            _ = try Layout.parse(Data(json.utf8), file: file)
            return []
        } catch {
            #expect(error.file == file)
            return error.description.split(separator: "\n").map(String.init)
        }
    }

    static func problems(region changes: [String: String?]) -> [String] {
        problems(layout(regions: [region(changes)]))
    }

    @Test func theBaseIsValid() throws {
        #expect(Self.problems(Self.layout()) == [])
        let layout = try Layout.parse(Data(Self.layout().utf8), file: Self.file)
        #expect(layout.regions[0].capacity == 4 && layout.background.hex == "#101010")
    }

    @Test func defaultsFillOmittedFields() throws {
        let json = Self.layout(regions: [#"{"name": "all", "x": 0, "y": 0, "width": 1, "height": 1, "sources": ["camera"]}"#])
        let region = try Layout.parse(Data(json.utf8), file: Self.file).regions[0]
        #expect(region == Region(name: "all", x: 0, y: 0, width: 1, height: 1, z: 0, maxRows: 1, maxColumns: 1, gap: 0,
                                 fit: .cover, background: try RGBColor(hex: "#101010"), sources: [.camera],
                                 order: .pinned, skip: 0, limit: nil, when: .always, tileAspect: nil))
    }

    @Test("each kind of problem names the file, the JSON path, what was expected and what was found", arguments: [
        (["fit": #""stretch""#], #"$.regions[0].fit: expected "contain" or "cover", found "stretch""#),
        (["x": "1.5"], "$.regions[0].x: expected a fraction of the canvas in [0, 1], found 1.5"),
        (["y": "-0.25"], "$.regions[0].y: expected a fraction of the canvas in [0, 1], found -0.25"),
        (["width": "0"], "$.regions[0].width: expected a fraction of the canvas in (0, 1], found 0"),
        (["x": "0.5", "width": "0.75"], "$.regions[0]: region runs past the canvas's right edge: x + width = 1.25"),
        (["y": "0.5", "height": "0.75"], "$.regions[0]: region runs past the canvas's bottom edge: y + height = 1.25"),
        (["maxRows": "0"], "$.regions[0].maxRows: expected an integer from 1 to 64, found 0"),
        (["maxColumns": "-1"], "$.regions[0].maxColumns: expected an integer from 1 to 64, found -1"),
        (["gap": "-2"], "$.regions[0].gap: expected an integer from 0 to 8192, found -2"),
        (["z": #""1""#], #"$.regions[0].z: expected an integer from -1000 to 1000, found "1""#),
        (["z": "1.5"], "$.regions[0].z: expected an integer from -1000 to 1000, found 1.5"),
        (["background": ##""#12345""##], ##"$.regions[0].background: expected a colour "#RRGGBB", found "#12345""##),
        (["background": "255"], ##"$.regions[0].background: expected a colour "#RRGGBB", found 255"##),
        (["sources": #"["camera", "webcam"]"#], #"$.regions[0].sources[1]: expected "camera" or "screen_share", found "webcam""#),
        (["sources": "[]"], #"$.regions[0].sources: expected at least one of "camera" or "screen_share", found an empty array"#),
        (["sources": #"["camera", "camera"]"#], #"$.regions[0].sources[1]: "camera" is listed twice"#),
        (["sources": #""camera""#], #"$.regions[0].sources: expected an array, found "camera""#),
        (["order": #""random""#], #"$.regions[0].order: expected "pinned" or "stage", found "random""#),
        (["when": #""sometimes""#], #"$.regions[0].when: expected "always", "screen_share" or "no_screen_share", found "sometimes""#),
        (["skip": "-1"], "$.regions[0].skip: expected an integer from 0 to 10000, found -1"),
        (["limit": "0"], "$.regions[0].limit: expected an integer from 1 to 4096, found 0"),
        (["tileAspect": #""wide""#], #"$.regions[0].tileAspect: expected an aspect ratio such as "16:9", found "wide""#),
        (["name": #""""#], #"$.regions[0].name: expected a non-empty string, found """#),
        (["name": nil], #"$.regions[0]: missing required field "name""#),
        (["colour": ##""#000000""##], "$.regions[0].colour: unknown field (expected one of name, x, y, width, height, z, maxRows, maxColumns, gap, fit, background, sources, order, skip, limit, when, tileAspect, label)"),
        (["maxColumns": "5", "gap": "400"], "$.regions[0]: region is 1280 px wide on the canvas, too small for maxColumns = 5 with gap 400 (needs 1610 px)"),
    ] as [([String: String?], String)])
    func regionProblem(changes: [String: String?], expected: String) {
        #expect(Self.problems(region: changes) == ["\(Self.file): \(expected)"])
    }

    @Test("canvas problems", arguments: [
        (#"{"width": 0, "height": 720, "fps": 30}"#, "$.canvas.width: expected an even number of pixels from 2 to 8192, found 0"),
        (#"{"width": 1280, "height": 721, "fps": 30}"#, "$.canvas.height: expected an even number of pixels from 2 to 8192, found 721"),
        (#"{"width": 1280, "height": 720, "fps": 0}"#, "$.canvas.fps: expected an integer from 1 to 120, found 0"),
        (#"{"width": 1280, "height": 720, "fps": 29.97}"#, "$.canvas.fps: expected an integer from 1 to 120, found 29.97"),
        (#"{"width": 1280, "height": 720}"#, #"$.canvas: missing required field "fps""#),
        (#"{"width": 1280, "height": 720, "fps": 30, "background": "black"}"#, ##"$.canvas.background: expected a colour "#RRGGBB", found "black""##),
        (#"[1280, 720]"#, "$.canvas: expected an object, found an array"),
    ])
    func canvasProblem(canvas: String, expected: String) {
        #expect(Self.problems(Self.layout(canvas: canvas)) == ["\(Self.file): \(expected)"])
    }

    @Test func duplicateRegionNames() {
        let json = Self.layout(regions: [Self.region(), Self.region(["z": "1"]), Self.region()])
        #expect(Self.problems(json) == [
            #"\#(Self.file): $.regions[1].name: duplicate region name "main" (also $.regions[0])"#,
            #"\#(Self.file): $.regions[2].name: duplicate region name "main" (also $.regions[0])"#,
        ])
    }

    @Test func aKeyGivenTwiceIsAProblemNotASilentChoice() {
        let json = Self.layout(regions: [Self.region(["fit": #""cover", "fit": "contain""#])])
        #expect(Self.problems(json) == [#"\#(Self.file): $.regions[0].fit: duplicate key "fit" (each field may appear once)"#])
    }

    @Test func anOddFieldNameIsWrittenAsInEveryOtherJSONPath() {
        #expect(Self.problems(region: ["odd name": "1"]) == [
            "\(Self.file): $.regions[0]['odd name']: unknown field (expected one of name, x, y, width, height, z, maxRows, maxColumns, gap, fit, background, sources, order, skip, limit, when, tileAspect, label)",
        ])
    }

    @Test func documentProblems() {
        #expect(Self.problems("{") .count == 1)
        #expect(Self.problems("{").first?.hasPrefix("\(Self.file): $: not valid JSON") == true)
        // The strict parser says where: line and column.
        #expect(Self.problems("{\n  \"name\": \"foo\",\n  \"canvas\": tru\n}").first?.contains("line 3, column") == true,
                "\(Self.problems("{\n  \"name\": \"foo\",\n  \"canvas\": tru\n}"))")
        #expect(Self.problems("[]") == ["\(Self.file): $: expected an object, found an array"])
        #expect(Self.problems(Self.layout(regions: [])) == ["\(Self.file): $.regions: expected at least one region, found an empty array"])
        #expect(Self.problems(#"{"canvas": {"width": 2, "height": 2, "fps": 1}, "regions": [], "extra": 1}"#) == [
            "\(Self.file): $.extra: unknown field (expected one of name, canvas, regions, focus)",
            #"\#(Self.file): $: missing required field "name""#,
            "\(Self.file): $.regions: expected at least one region, found an empty array",
        ])
    }

    @Test func everyProblemIsListedAtOnce() {
        let json = Self.layout(
            canvas: #"{"width": 1281, "height": 720, "fps": 0}"#,
            regions: [
                Self.region(["fit": #""stretch""#, "x": "2"]),
                Self.region(["name": #""strip""#, "sources": #"["webcam"]"#, "when": "true"]),
                Self.region(["name": #""strip""#]),
            ])
        #expect(Self.problems(json) == [
            "$.canvas.width: expected an even number of pixels from 2 to 8192, found 1281",
            "$.canvas.fps: expected an integer from 1 to 120, found 0",
            "$.regions[0].x: expected a fraction of the canvas in [0, 1], found 2",
            #"$.regions[0].fit: expected "contain" or "cover", found "stretch""#,
            #"$.regions[1].sources[0]: expected "camera" or "screen_share", found "webcam""#,
            #"$.regions[1].when: expected "always", "screen_share" or "no_screen_share", found true"#,
            #"$.regions[2].name: duplicate region name "strip" (also $.regions[1])"#,
        ].map { "\(Self.file): \($0)" })
    }

    @Test func loadNamesTheFileAndResolveExplainsUnknownNames() {
        let missing = URL(fileURLWithPath: "/nonexistent/layout.json")
        #expect(throws: LayoutError.self) { try Layout.load(contentsOf: missing) }
        do {
            _ = try Layout.resolve("nope")
            Issue.record("resolved an unknown layout")
        } catch {
            #expect(error.file == "nope")
            #expect(error.description.contains("built-in: grid"))
        }
    }

    @Test func decodingValidatesToo() {
        let json = Self.layout(regions: [Self.region(["fit": #""stretch""#])])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Layout.self, from: Data(json.utf8)) }
    }
}
