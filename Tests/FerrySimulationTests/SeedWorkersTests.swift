import SyncKernelTesting
import Testing

@testable import FerrySimulation

/// The sweep's worker processes, with a shell script standing in for `ferry-sim --worker`:
/// it passes every seed but 5, which breaks `lost-write`, ends its process at seed 3, and
/// prints a line of its own before each answer.
@Suite struct SeedWorkersTests {
    static let script = """
        while read seed; do
          case $seed in
            3) exit 7 ;;
            5) violations='[{"invariant":"lost-write","detail":"seed 5"}]' ;;
            *) violations='[]' ;;
          esac
          echo "a line the run printed"
          printf '{"seed":%s,"verdict":{"violations":%s,"steps":10,"seconds":43200,"trace":[]}}\\n' "$seed" "$violations"
        done
        """

    static func workers(_ count: Int) -> SeedWorkers {
        SeedWorkers(executable: "/bin/sh", arguments: ["-c", script], count: count)
    }

    @Test func everySeedGetsAVerdictAndOneThatEndsItsWorkerIsACrash() {
        let verdicts = Dictionary(uniqueKeysWithValues: Self.workers(2).run(1...8, stopAtFirstFailure: false))
        #expect(verdicts.keys.sorted() == Array(1...8))
        #expect(verdicts[3]?.violations.map(\.invariant) == [SeedWorkers.crashed])
        #expect(verdicts[3]?.violations.first?.detail.contains("exit status 7") == true)
        #expect(verdicts[5]?.violations == [SimulationViolation("lost-write", "seed 5")])
        #expect(verdicts.filter { $0.value.passed }.keys.sorted() == [1, 2, 4, 6, 7, 8])
        #expect(verdicts[8]?.seconds == 43200)
    }

    /// Each seed's verdict gives the number of seeds its worker has run, that one included.
    @Test func aWorkerIsReplacedAfterItsShareOfSeeds() {
        let counting = """
            ran=0
            while read seed; do
              ran=$((ran + 1))
              printf '{"seed":%s,"verdict":{"violations":[],"steps":%s,"seconds":1,"trace":[]}}\\n' "$seed" "$ran"
            done
            """
        var workers = SeedWorkers(executable: "/bin/sh", arguments: ["-c", counting], count: 1)
        workers.seedsPerWorker = 3
        let verdicts = workers.run(1...7, stopAtFirstFailure: false)
        #expect(verdicts.map(\.1.steps) == [1, 2, 3, 1, 2, 3, 1])
    }

    @Test func noSeedStartsAfterTheFirstFailureWhenTheSweepStopsThere() {
        let verdicts = Self.workers(1).run(1...8, stopAtFirstFailure: true)
        #expect(verdicts.map(\.0) == [1, 2, 3])
    }
}
