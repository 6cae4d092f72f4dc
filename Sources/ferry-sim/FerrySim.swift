import ArgumentParser
import FerrySimulation
import Foundation
import SyncKernelTesting

/// `ferry-sim`: runs the simulation of the shipped plugins over many seeds, and on a
/// violation prints the seed, the shortest trace that still fails and the command that
/// replays it.
@main
struct FerrySim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ferry-sim",
        abstract: "Simulates devices syncing through faults and checks that nothing is lost or applied twice.",
        discussion: """
            Each seed draws a run: devices (Ferry runtimes on stores of their own) and the
            reference server in this process, on virtual time, with people's actions and
            faults (lost answers, answers past the size cap, 5xx and 429, offline and
            metered links, crashes, damaged stores, a second process on a device's store,
            server restarts and outages, revoked sessions, full disks, skewed clocks). The
            same seed gives the same run.
            Exit status 1 when an invariant failed.
            """
    )

    @Option(help: "Run only this seed.")
    var seed: UInt64?

    @Option(help: "How many seeds to run, from --first.")
    var seeds = 100

    @Option(help: "The first seed of a range.")
    var first: UInt64 = 1

    @Flag(help: "With --seed: shrink the failure and print each step of the shortest trace.")
    var replay = false

    @Option(help: "Devices per run.")
    var devices = 3

    @Option(help: "Events drawn per run (a sync is now and then followed by a second process's pass).")
    var steps = 200

    @Option(help: "Runs at once, each in a process of its own (with --verbose, in this process).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Only these workloads, comma-separated (recipes, notes, movies, family, audio).")
    var workloads: String?

    @Flag(help: "Now and then restore the server from the backup of its last restart (where every workload's checks allow for it, as the shipped ones do).")
    var restores = false

    @Flag(help: "Start no seed after the first that fails (with --jobs 1: stop there).")
    var stopAtFirstFailure = false

    @Flag(help: "Print the failures without shrinking the first one.")
    var noShrink = false

    @Flag(help: "Print every step of every run.")
    var verbose = false

    @Flag(help: "With --seed: print the events the seed draws, one per line (a trace file for --trace), and run nothing.")
    var events = false

    @Option(help: "Run the events of this file (one per line, as a trace prints them) instead of drawing them.")
    var trace: String?

    @Flag(help: .hidden)
    var worker = false

    /// What a run of `seed` with `steps` events is drawn from.
    private func options(seed: UInt64, steps: Int) -> Simulation.Options {
        Simulation.Options(seed: seed, devices: devices, steps: steps, restores: restores)
    }

    /// The command's options that a replay needs besides the seed.
    private var replayOptions: String {
        "--devices \(devices) --steps \(steps)" + (workloads.map { " --workloads \($0)" } ?? "") + (restores ? " --restores" : "")
    }

    /// The workloads `--workloads` names; nil for all.
    private var only: [String]? {
        workloads.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    mutating func validate() throws {
        for name in only ?? [] where !ShippedSimulation.workloads.contains(name) {
            throw ValidationError("no workload \(name); there are \(ShippedSimulation.workloads.joined(separator: ", "))")
        }
    }

    mutating func run() async throws {
        if let trace { return try await run(trace: trace) }
        if events, let seed {
            let simulation = ShippedSimulation.simulation(options(seed: seed, steps: steps), only: only)
            for event in simulation.events() { print(event) }
            return
        }
        let sweep = SeedSweep(
            devices: devices,
            steps: steps,
            jobs: max(1, jobs),
            verbose: verbose || replay,
            only: only,
            restores: restores
        )
        if worker { return try await sweep.serveSeeds() }
        let range = seed.map { $0...$0 } ?? first...(first + UInt64(max(seeds, 1)) - 1)
        let started = Date()
        let report = await sweep.run(range, stopAtFirstFailure: stopAtFirstFailure, workers: Bundle.main.executablePath)
        let elapsed = Date().timeIntervalSince(started)
        print(
            "ferry-sim: \(report.runs) seeds, \(report.runs - report.failures.count) passed, "
                + String(format: "%.0f simulated device-days, %.1f s", report.deviceDays, elapsed)
        )
        guard let failure = report.failures.first else { return }
        for failed in report.failures {
            print("seed \(failed.seed): \(failed.verdict.violations.first.map { "\($0)" } ?? "")".prefix(160))
        }
        print("seed \(failure.seed) failed:")
        for violation in failure.verdict.violations { print("  \(violation)") }
        if noShrink { throw ExitCode(1) }
        // A run that ended its worker would end this process too: replayed alone, it shows where.
        if failure.verdict.violations.contains(where: { $0.invariant == SeedWorkers.crashed }) {
            print("replay: ferry-sim --seed \(failure.seed) --verbose \(replayOptions)")
            throw ExitCode(1)
        }
        let simulation = ShippedSimulation.simulation(options(seed: failure.seed, steps: steps), only: only)
        let shrunk = await simulation.shrink(simulation.events(), failing: failure.verdict)
        print("shortest trace that still fails (\(shrunk.events.count) of \(failure.verdict.steps) events):")
        for line in shrunk.verdict.trace { print("  \(line)") }
        for violation in shrunk.verdict.violations { print("  => \(violation)") }
        print("replay: ferry-sim --seed \(failure.seed) --replay \(replayOptions)")
        throw ExitCode(1)
    }

    /// Runs the events of a trace file, printing each step.
    private func run(trace path: String) async throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read the trace \(path)")
        }
        var events: [SimulationEvent] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            let step = line.split(separator: "->").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !step.isEmpty, !step.hasPrefix("--"), !step.hasPrefix("=>") else { continue }
            guard let event = SimulationEvent(line: step) else {
                throw ValidationError("\(path):\(number + 1): not an event: \(step)")
            }
            events.append(event)
        }
        let simulation = ShippedSimulation.simulation(options(seed: seed ?? 0, steps: events.count), only: only)
        let verdict = await simulation.run(events) { line in print(line) }
        for violation in verdict.violations { print("=> \(violation)") }
        if !verdict.passed { throw ExitCode(1) }
    }
}
