import FerrySimulation
import SyncKernelTesting
import Testing

/// Each plugin's workload on its own, through faults: a seed whose run keeps every
/// invariant, and the same trace twice.
@Suite struct WorkloadTests {
    static func simulation(_ workload: String, seed: UInt64) -> Simulation {
        ShippedSimulation.simulation(.init(seed: seed, devices: 3, steps: 150), only: [workload])
    }

    @Test(arguments: [("movies", UInt64(3)), ("family", 4), ("audio", 5)])
    func aRunKeepsEveryInvariant(workload: String, seed: UInt64) async {
        let simulation = Self.simulation(workload, seed: seed)
        let verdict = await simulation.run(simulation.events())
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.hasPrefix("act") && $0.contains(" \(workload) ") })
    }

    @Test(arguments: ["movies", "family", "audio"])
    func theSameSeedGivesTheSameTrace(workload: String) async {
        let simulation = Self.simulation(workload, seed: 11)
        let first = await simulation.run(simulation.events())
        let second = await simulation.run(simulation.events())
        #expect(first == second)
    }
}
