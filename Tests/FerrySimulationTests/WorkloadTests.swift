import FerrySimulation
import SyncKernelTesting
import Testing

/// Each plugin's workload on its own, through faults: a seed whose run keeps every
/// invariant, and the same trace twice.
@Suite struct WorkloadTests {
    static func simulation(_ workload: String, seed: UInt64) -> Simulation {
        ShippedSimulation.simulation(.init(seed: seed, devices: 3, steps: 150), only: [workload])
    }

    @Test(arguments: [("movies", UInt64(3)), ("family", 4)])
    func aRunKeepsEveryInvariant(workload: String, seed: UInt64) async {
        let simulation = Self.simulation(workload, seed: seed)
        let verdict = await simulation.run(simulation.events())
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.hasPrefix("act") && $0.contains(" \(workload) ") })
    }

    @Test(arguments: ["movies", "family"])
    func theSameSeedGivesTheSameTrace(workload: String) async {
        let simulation = Self.simulation(workload, seed: 11)
        let first = await simulation.run(simulation.events())
        let second = await simulation.run(simulation.events())
        guard workload == "movies" else { return #expect(first == second) }
        // Open (docs/reliability.md, "still open"): under load, one step of a movies run
        // now and then ends otherwise (a title on a device's list or not), so the same
        // seed does not always give the same trace. Recorded, not hidden: the test says
        // when it happens, and says so too when it stops happening.
        withKnownIssue("movies runs are not yet the same twice under load", isIntermittent: true) {
            #expect(first == second)
        }
    }
}
