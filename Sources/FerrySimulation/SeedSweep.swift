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

    public init(devices: Int, steps: Int, jobs: Int, verbose: Bool, only: [String]? = nil) {
        self.devices = devices
        self.steps = steps
        self.jobs = jobs
        self.verbose = verbose
        self.only = only
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
    public func run(_ seeds: ClosedRange<UInt64>, stopAtFirstFailure: Bool = false) async -> Report {
        var report = Report()
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
                report.runs += 1
                report.deviceDays += verdict.seconds * Double(devices) / 86_400
                if !verdict.passed { report.failures.append(Failure(seed: seed, verdict: verdict)) }
                if stopAtFirstFailure, !report.failures.isEmpty { continue }
                if next <= seeds.upperBound, next > seeds.lowerBound { start() }
            }
        }
        report.failures.sort { $0.seed < $1.seed }
        return report
    }

    /// One seed's run.
    public func run(_ seed: UInt64) async -> SimulationVerdict {
        let simulation = ShippedSimulation.simulation(Simulation.Options(seed: seed, devices: devices, steps: steps), only: only)
        guard verbose else { return await simulation.run(simulation.events()) }
        return await simulation.run(simulation.events()) { line in print("[\(seed)] \(line)") }
    }
}
