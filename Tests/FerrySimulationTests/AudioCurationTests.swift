import FerrySimulation
import SyncKernelTesting
import Testing

/// The server's operator changes a collection's albums (`curate`) while devices keep it:
/// each device reconciles what it keeps with the server's collections.
@Suite("ferry-sim: collections curated on the server")
struct AudioCurationTests {
    /// An album that left a kept collection, and that nothing else keeps, is no longer kept.
    @Test func anAlbumThatLeftAKeptCollectionIsNoLongerKept() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 audio keep collection col_demo_new", "act 0 audio curate col_demo_new alb_demo_3"],
            seed: 2,
            only: ["audio"]
        )
        #expect(verdict.violations == [])
        #expect(!verdict.trace.contains { $0.contains("curate") && $0.contains("->") }, "the curation was taken: \(verdict.trace)")
    }

    /// A kept collection that grew past the cap: the album new in it is kept, its downloads
    /// wait for room, saying so (they do not fit), and the files on disk stay within the cap.
    @Test func aKeptCollectionThatGrewPastTheCapKeepsTheCap() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 audio keep collection col_demo_new", "sync 1", "act 0 audio curate col_demo_new alb_demo_1,alb_demo_2,alb_demo_3", "sync 1"],
            seed: 2,
            only: ["audio"]
        )
        #expect(verdict.violations == [])
        #expect(!verdict.trace.contains { $0.contains("curate") && $0.contains("->") }, "the curation was taken: \(verdict.trace)")
    }

    /// A collection emptied on the server keeps nothing on the devices that keep it.
    @Test func anEmptiedCollectionKeepsNothing() async {
        let verdict = await FoundTraceTests.run(
            ["act 2 audio keep collection col_demo_favourites", "act 0 audio curate col_demo_favourites -"],
            seed: 2,
            only: ["audio"]
        )
        #expect(verdict.violations == [])
        #expect(!verdict.trace.contains { $0.contains("curate") && $0.contains("->") }, "the curation was taken: \(verdict.trace)")
    }
}
