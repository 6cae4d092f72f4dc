import FerrySimulation
import SyncKernelTesting
import Testing

/// Family as it ships, online-only, on the device set up by its configuration alone (the
/// last device, in seeds 5, 12, 19, …): each write goes at once or fails, and one that
/// failed after the server took it is still on the server. The first act loads the group;
/// the next acts on the round it showed, so a fault meets the write itself.
@Suite("ferry-sim: family online-only")
struct FamilyOnlineTraceTests {
    /// A vote whose answer was lost is sent again with the same key once the probe finds the
    /// server: the vote is taken once, and the person sees it done.
    @Test func aVoteWhoseAnswerWasLostIsTakenOnce() async {
        let verdict = await FoundTraceTests.run(
            ["act 2 family vote 603 up self", "fault 2 lose-answer", "act 2 family vote 603 down self"],
            seed: 5,
            only: ["family"]
        )
        #expect(verdict.violations == [])
        #expect(!verdict.trace.contains { $0.contains("->") }, "every act done: \(verdict.trace)")
    }

    /// The device died after the server took its second vote: the person saw it fail, and
    /// the server has it. A vote that failed may have been taken, so the first vote, the
    /// last the person saw done, is not what the server must have.
    @Test func aVoteThatFailedAfterTheServerTookItStands() async {
        let verdict = await FoundTraceTests.run(
            ["act 2 family vote 603 up self", "fault 2 crash-after-apply", "act 2 family vote 603 down self"],
            seed: 5,
            only: ["family"]
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("act 2 family vote 603 down self") && $0.contains("->") }, "\(verdict.trace)")
    }
}
