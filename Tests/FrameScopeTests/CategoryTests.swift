import FrameScope
import FrameTrace
import Testing

@Suite("Categories: one vocabulary, declared in FrameTrace")
struct CategoryTests {
    @Test("Every built-in Category is TraceCategory's: the same name, and named(_:) finds the same value")
    func builtInsAreTraceCategories() {
        let statics: [(Category, TraceCategory)] = [
            (.layout, .layout), (.imageDecode, .imageDecode), (.cornerRounding, .cornerRounding),
            (.diffApply, .diffApply),
            (.frame, .frame), (.input, .input), (.render, .render), (.other, .other), (.commit, .commit),
            (.frameTimeline, .frameTimeline),
        ]
        #expect(statics.count == TraceCategory.allCases.count, "a static per built-in")
        for (category, builtIn) in statics {
            #expect(category == Category(builtIn))
            #expect(category.name == builtIn.name)
            #expect(Category.named(builtIn.name) == category)
        }
        #expect(
            Set(TraceCategory.allCases.map { Category($0).id }).count == TraceCategory.allCases.count, "distinct ids")
    }

    @Test("A category an app names is not a built-in, and keeps its name")
    func appCategory() {
        let networking = Category.named("category-tests-networking")
        #expect(!TraceCategory.allCases.map { Category($0) }.contains(networking))
        #expect(networking.name == "category-tests-networking")
    }
}
