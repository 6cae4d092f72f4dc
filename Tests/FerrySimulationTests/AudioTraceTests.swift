import FerrySimulation
import SyncKernelTesting
import Testing

/// The shortest traces the audio workload found, replayed with the workloads that found
/// them: each failed before its fix and must pass now.
@Suite struct AudioTraceTests {
    static func run(_ lines: [String], seed: UInt64, only workloads: [String]) async -> SimulationVerdict {
        let events = lines.compactMap(SimulationEvent.init(line:))
        #expect(events.count == lines.count)
        let simulation = ShippedSimulation.simulation(.init(seed: seed, steps: events.count), only: workloads)
        return await simulation.run(events)
    }

    /// needs-person: a track file whose answer was replaced by junk was refused as the
    /// wrong size, and its download ended a dead letter instead of going again.
    @Test func aTrackFileAnsweredWithJunkIsDownloadedAgain() async {
        let verdict = await Self.run(
            ["fault 1 junk-answer", "act 1 audio play demo-a2-t1.wav", "sync 1"],
            seed: 16,
            only: ["audio"]
        )
        #expect(verdict.violations == [])
    }
}
