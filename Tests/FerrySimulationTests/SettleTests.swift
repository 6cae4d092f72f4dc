import FerrySimulation
import SyncKernelTesting
import Testing

/// Once faults stop, the settle lets time pass until nothing is left to send but dead
/// letters, which only a person changes.
@Suite("ferry-sim: the settle")
struct SettleTests {
    /// A download of the demo's broken album ends dead (its file never matches its
    /// checksum), which no workload takes for one a person must see: the settle names it
    /// as soon as nothing else is left, without waiting its forty rounds first.
    @Test func aDeadLetterIsReportedAsSoonAsNothingElseIsLeftToSend() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 audio keep album alb_demo_broken", "sync 1"],
            seed: 2,
            only: ["audio"]
        )
        #expect(verdict.violations.map(\.invariant) == ["needs-person"])
        #expect(verdict.violations.first?.detail.contains("demo-broken-t1.wav") == true)
        #expect(verdict.seconds < 3600, "the settle waited \(verdict.seconds) s of simulated time")
    }
}
