import Testing
@testable import StageMixPlan

struct NameSuggestionTests {
    @Test func aSwapOrASlipFindsTheName() {
        let layouts = ["grid", "pip", "screen-share", "sidebar", "speaker", "spotlight"]
        #expect(NameSuggestion.closest(to: "gird", among: layouts) == "grid")
        #expect(NameSuggestion.closest(to: "Spotlite", among: layouts) == "spotlight")
        #expect(NameSuggestion.closest(to: "sidbar", among: layouts) == "sidebar")
    }

    @Test func nothingCloseSuggestsNothing() {
        #expect(NameSuggestion.closest(to: "mosaic", among: ["grid", "pip"]) == nil)
        #expect(NameSuggestion.closest(to: "", among: ["grid"]) == nil)
        #expect(NameSuggestion.distance(Array("abc"), Array("abc")) == 0)
        #expect(NameSuggestion.distance(Array("ab"), Array("ba")) == 1)
        #expect(NameSuggestion.distance(Array("kitten"), Array("sitting")) == 3)
    }
}
