import FerrySimulation
import SyncKernelTesting
import Testing

/// How a simulated device dies in a request, and what of it runs afterwards.
@Suite struct DeviceDeathTests {
    /// A request that no step waits for (here the token refresh that reading the device's
    /// token for a revocation makes) takes a crash fault: it only fails, and the run goes on.
    /// Killing the life there left that request waiting for a restart that never came.
    @Test(.timeLimit(.minutes(3)))
    func aRequestThatKillsTheDeviceBetweenStepsOnlyFails() async {
        let verdict = await FoundTraceTests.run(["fault 0 crash-after-apply", "wait 90000", "revoke 0", "sync 0"], seed: 1)
        #expect(verdict.steps == 4)
        #expect(verdict.violations == [])
    }

    /// A device that dies in the request of a step ends there: the step says so, and the
    /// next life syncs what the dead one queued.
    @Test(.timeLimit(.minutes(3)))
    func aDeviceThatDiesInAStepStartsAgainAndItsQueueDrains() async {
        let verdict = await FoundTraceTests.run(
            ["act 0 notes put a 1", "act 0 movies add aliens Kim", "fault 0 crash-after-apply", "sync 0", "sync 0"],
            seed: 1
        )
        #expect(verdict.trace.contains { $0.hasPrefix("sync 0") && $0.contains("died in a request; started again") })
        #expect(verdict.violations == [])
    }
}
