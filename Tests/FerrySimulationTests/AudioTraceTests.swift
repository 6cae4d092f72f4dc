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

    /// not-downloaded: with the disk full, keeping an album and dropping another were
    /// recorded, but the settle of the files after each failed, and the call threw as if
    /// nothing had been done: the person took the album as still kept, and it was gone.
    @Test func aChangeOfWhatIsKeptStandsWhenItsFilesCannotFollowYet() async {
        let verdict = await Self.run(
            [
                "act 1 movies add mononoke Alex", "act 2 audio keep album alb_demo_1", "sync 1", "sync 2",
                "act 2 notes put c 371", "act 2 movies remove mononoke", "disk 2 full",
                "act 2 audio keep album alb_demo_3", "act 2 audio drop album alb_demo_1",
            ],
            seed: 16,
            only: ["recipes", "notes", "movies", "family", "audio"]
        )
        #expect(verdict.violations == [])
    }

    /// over-cap: a track was moved into place before its row said so; the disk was full
    /// when the row was to be written, and the file stayed on disk uncounted by the budget,
    /// so that later downloads filled the cap beside it.
    @Test func aTrackWhoseRowCouldNotBeWrittenIsNotLeftOnDiskUncounted() async {
        let verdict = await Self.run(
            [
                "disk 0 full", "fault 0 crash-after-apply", "act 0 audio play demo-a1-t2.wav", "sync 0",
                "act 0 audio keep album alb_demo_3", "sync 0", "wait 38125", "sync 0",
                "act 0 audio keep collection col_demo_new",
            ],
            seed: 738,
            only: ["recipes", "notes", "audio"]
        )
        #expect(verdict.violations == [])
    }
}
