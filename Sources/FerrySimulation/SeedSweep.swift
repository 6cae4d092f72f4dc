import Foundation
import SyncKernelTesting

/// Runs the shipped simulation over a range of seeds, a few at once.
public struct SeedSweep: Sendable {
    public let devices: Int
    public let steps: Int
    public let jobs: Int
    public let verbose: Bool
    /// The workloads to run; nil for all.
    public let only: [String]?
    /// Whether runs restore the server from a backup now and then (`Simulation.Options.restores`).
    public let restores: Bool

    public init(devices: Int, steps: Int, jobs: Int, verbose: Bool, only: [String]? = nil, restores: Bool = false) {
        self.devices = devices
        self.steps = steps
        self.jobs = jobs
        self.verbose = verbose
        self.only = only
        self.restores = restores
    }

    /// A seed whose run broke an invariant.
    public struct Failure: Sendable {
        public let seed: UInt64
        public let verdict: SimulationVerdict
    }

    /// What a sweep found.
    public struct Report: Sendable {
        public var runs = 0
        public var failures: [Failure] = []
        /// Simulated time over every device of every run, in days.
        public var deviceDays = 0.0
    }

    /// Runs every seed of `seeds`, or with `stopAtFirstFailure` none after the first that
    /// fails (the runs already going finish); failures come in seed order.
    ///
    /// With `workers`, the path of a `ferry-sim` executable, `jobs` worker processes of it
    /// run the seeds (``SeedWorkers``); without it, with one job or when printing every
    /// step, `jobs` tasks of this process do.
    public func run(_ seeds: ClosedRange<UInt64>, stopAtFirstFailure: Bool = false, workers: String? = nil) async -> Report {
        let verdicts: [(UInt64, SimulationVerdict)]
        if let workers, jobs > 1, !verbose, seeds.count > 1 {
            let pool = SeedWorkers(executable: workers, arguments: workerArguments, count: jobs)
            // Off Swift's own threads: the pool's threads block on the workers' pipes.
            verdicts = await withCheckedContinuation { finished in
                Thread { finished.resume(returning: pool.run(seeds, stopAtFirstFailure: stopAtFirstFailure)) }.start()
            }
        } else {
            verdicts = await runHere(seeds, stopAtFirstFailure: stopAtFirstFailure)
        }
        var report = Report()
        for (seed, verdict) in verdicts {
            report.runs += 1
            report.deviceDays += verdict.seconds * Double(devices) / 86_400
            if !verdict.passed { report.failures.append(Failure(seed: seed, verdict: verdict)) }
        }
        report.failures.sort { $0.seed < $1.seed }
        return report
    }

    /// Runs the seeds in `jobs` tasks of this process.
    private func runHere(_ seeds: ClosedRange<UInt64>, stopAtFirstFailure: Bool) async -> [(UInt64, SimulationVerdict)] {
        var verdicts: [(UInt64, SimulationVerdict)] = []
        await withTaskGroup(of: (UInt64, SimulationVerdict).self) { group in
            var next = seeds.lowerBound
            var running = 0
            func start() {
                let seed = next
                next += 1
                running += 1
                group.addTask { [self] in (seed, await run(seed)) }
            }
            while running < jobs, next <= seeds.upperBound { start() }
            while let (seed, verdict) = await group.next() {
                running -= 1
                verdicts.append((seed, verdict))
                if stopAtFirstFailure, verdicts.contains(where: { !$0.1.passed }) { continue }
                if next <= seeds.upperBound, next > seeds.lowerBound { start() }
            }
        }
        return verdicts
    }

    /// One seed's run.
    public func run(_ seed: UInt64) async -> SimulationVerdict {
        let simulation = ShippedSimulation.simulation(
            Simulation.Options(seed: seed, devices: devices, steps: steps, restores: restores),
            only: only
        )
        guard verbose else { return await simulation.run(simulation.events()) }
        return await simulation.run(simulation.events()) { line in print("[\(seed)] \(line)") }
    }
}
