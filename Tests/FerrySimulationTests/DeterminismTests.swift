import FerrySimulation
import SyncKernelTesting
import Testing

@Suite struct DeterminismTests {
    @Test func theSameSeedGivesTheSameTraceAndVerdict() async {
        let simulation = ShippedSimulation.simulation(.init(seed: 7, devices: 3, steps: 120))
        let first = await simulation.run(simulation.events())
        let second = await simulation.run(simulation.events())
        #expect(first.trace.count > 120)
        #expect(first == second)
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
