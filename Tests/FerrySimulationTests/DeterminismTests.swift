import FerrySimulation
import SyncKernelTesting
import Testing

@Suite struct DeterminismTests {
    /// Three copies at once, each thread's scheduling left to the machine: every workload,
    /// through every kind of fault, replays step for step. Seed 12 sets its last device up
    /// by its configuration alone: it signs in by itself, its operations' sign-ins aside
    /// from their turns and together (`BatchTurns.aside`).
    @Test(arguments: [7, 12] as [UInt64])
    func theSameSeedGivesTheSameTraceAndVerdict(seed: UInt64) async {
        let simulation = ShippedSimulation.simulation(.init(seed: seed, devices: 3, steps: 120))
        async let first = simulation.run(simulation.events())
        async let second = simulation.run(simulation.events())
        async let third = simulation.run(simulation.events())
        let runs = await [first, second, third]
        #expect(runs[0].trace.count > 120)
        #expect(runs[1] == runs[0])
        #expect(runs[2] == runs[0])
    }

    @Test func differentSeedsDrawDifferentRuns() {
        let one = ShippedSimulation.simulation(.init(seed: 1)).events()
        let two = ShippedSimulation.simulation(.init(seed: 2)).events()
        #expect(one != two)
        #expect(one == ShippedSimulation.simulation(.init(seed: 1)).events())
    }

    @Test func everyEventReadsBackFromItsTraceLine() {
        let events = ShippedSimulation.simulation(.init(seed: 3, steps: 500)).events()
        #expect(events.map { SimulationEvent(line: $0.description) } == events)
    }
}
