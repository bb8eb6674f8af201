import Foundation
import Testing
@testable import StageMixLayout

@Suite("Label styles")
struct LabelStyleTests {
    typealias V = ValidationTests

    @Test func anEmptyLabelObjectTakesEveryDefault() throws {
        let json = V.layout(regions: [V.region(["label": "{}"])])
        let label = try #require(try Layout.parse(Data(json.utf8), file: V.file).regions[0].label)
        #expect(label == LabelStyle(position: .bottomLeft, size: 20, margin: 8, color: .white, plate: .black, plateOpacity: 0.6))
    }

    @Test func aRegionWithoutLabelOrWithNullShowsNoNames() throws {
        for json in [V.layout(), V.layout(regions: [V.region(["label": "null"])])] {
            #expect(try Layout.parse(Data(json.utf8), file: V.file).regions[0].label == nil)
        }
    }

    @Test func everyFieldIsRead() throws {
        let label = ##"{"position": "top-right", "size": 32, "margin": 12, "color": "#FFEE00", "plate": "#202020", "plateOpacity": 1}"##
        let json = V.layout(regions: [V.region(["label": label])])
        let read = try #require(try Layout.parse(Data(json.utf8), file: V.file).regions[0].label)
        #expect(read == LabelStyle(position: .topRight, size: 32, margin: 12, color: try RGBColor(hex: "#FFEE00"),
                                   plate: try RGBColor(hex: "#202020"), plateOpacity: 1))
    }

    @Test("each bad label field is named by its JSON path", arguments: [
        (#"{"position": "bottom-centre"}"#,
         #"$.regions[0].label.position: expected "bottom-left", "bottom-right", "top-left" or "top-right", found "bottom-centre""#),
        (#"{"size": 5}"#, "$.regions[0].label.size: expected an integer from 6 to 256, found 5"),
        (#"{"size": 20.5}"#, "$.regions[0].label.size: expected an integer from 6 to 256, found 20.5"),
        (#"{"margin": -1}"#, "$.regions[0].label.margin: expected an integer from 0 to 1024, found -1"),
        (#"{"color": "white"}"#, ##"$.regions[0].label.color: expected a colour "#RRGGBB", found "white""##),
        (##"{"plate": "#12345"}"##, ##"$.regions[0].label.plate: expected a colour "#RRGGBB", found "#12345""##),
        (#"{"plateOpacity": 1.5}"#, "$.regions[0].label.plateOpacity: expected a number in [0, 1], found 1.5"),
        (#"{"plateOpacity": "0.5"}"#, #"$.regions[0].label.plateOpacity: expected a number in [0, 1], found "0.5""#),
        (#"{"font": "Comic Sans"}"#,
         "$.regions[0].label.font: unknown field (expected one of position, size, margin, color, plate, plateOpacity)"),
        (#"true"#, "$.regions[0].label: expected an object, found true"),
    ])
    func badFields(label: String, expected: String) {
        #expect(V.problems(region: ["label": label]) == ["\(V.file): \(expected)"])
    }

    @Test func everyProblemOfOneLabelIsListed() {
        let problems = V.problems(region: ["label": #"{"size": 0, "margin": 5000, "position": 3}"#])
        #expect(problems.count == 3)
        #expect(problems.allSatisfy { $0.contains("$.regions[0].label.") })
    }

    @Test func resizingScalesSizeAndMarginWithTheCanvas() throws {
        let json = V.layout(regions: [V.region(["label": #"{"size": 20, "margin": 8}"#])])
        let layout = try Layout.parse(Data(json.utf8), file: V.file)
        let half = try #require(layout.resized(to: CanvasSize(width: 640, height: 360)).regions[0].label)
        #expect(half.size == 10 && half.margin == 4)
        let double = try #require(layout.resized(to: CanvasSize(width: 2560, height: 1440)).regions[0].label)
        #expect(double.size == 40 && double.margin == 16)
    }

    @Test func withoutLabelsDropsEveryRegionsLabel() {
        let layout = builtin("spotlight")
        #expect(layout.regions.allSatisfy { $0.label != nil })
        #expect(layout.withoutLabels.regions.allSatisfy { $0.label == nil })
        #expect(layout.withoutLabels.regions.map(\.name) == layout.regions.map(\.name))
    }

    @Test("every built-in layout labels every region", arguments: Layout.builtinNames)
    func builtinsAreLabelled(name: String) {
        #expect(builtin(name).regions.allSatisfy { $0.label == LabelStyle() })
    }

    @Test func aLabelSurvivesEncodingAndDecoding() throws {
        var layout = builtin("grid")
        layout.regions[0].label = LabelStyle(position: .topLeft, size: 30, margin: 0, color: .black, plate: .white, plateOpacity: 0.25)
        let decoded = try JSONDecoder().decode(Layout.self, from: JSONEncoder().encode(layout))
        #expect(decoded == layout)
    }
}
