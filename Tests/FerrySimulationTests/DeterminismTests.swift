import FerrySimulation
import SyncKernelTesting
import Testing

@Suite struct DeterminismTests {
    /// Three copies at once, each thread's scheduling left to the machine: every workload,
    /// through every kind of fault, replays step for step, though a device's sends race
    /// each other (several of its requests wait for their answers at once). Seed 12 sets
    /// its last device up by its configuration alone: it signs in by itself, its
    /// operations' sign-ins aside from their turns and together (`BatchTurns.aside`).
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
        #expect(Self.mostAtOnce(runs[0]) > 1)
    }

    /// The most requests of one device that waited at once, as the trace's last line says.
    static func mostAtOnce(_ verdict: SimulationVerdict) -> Int {
        let words = (verdict.trace.last { $0.hasPrefix("-- at most ") } ?? "").split(separator: " ")
        return words.count > 3 ? Int(words[3]) ?? 0 : 0
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
