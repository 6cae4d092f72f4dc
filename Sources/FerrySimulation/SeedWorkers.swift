import Foundation
import Synchronization
import SyncKernelTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a sweep's seeds in worker processes: each is `executable` started with
/// `arguments` (`ferry-sim --worker ...`), given one seed at a time on its standard input,
/// and answering each with a line of ``SeedWorkers/Answer`` JSON.
///
/// Processes rather than tasks of one process: two seeds at once in one process took 1.3
/// times as long as one seed in each of two processes (they contend in the Swift runtime
/// and the allocator). And a seed that ends its process is one failed seed, `crashed`,
/// while a new worker takes the next.
///
/// A worker is replaced after `seedsPerWorker` seeds, so that what runs leave behind in
/// their process (a task suspended for good, a library's caches) stays bounded however
/// long the sweep.
public struct SeedWorkers: Sendable {
    let executable: String
    let arguments: [String]
    let count: Int
    var seedsPerWorker = 200

    /// The invariant of a seed whose worker ended without a verdict.
    public static let crashed = "crashed"

    /// What a worker writes for each seed.
    struct Answer: Codable {
        var seed: UInt64
        var verdict: SimulationVerdict
    }

    /// Runs every seed of `seeds`, or with `stopAtFirstFailure` none after the first that
    /// fails; returns the verdicts as they came.
    func run(_ seeds: ClosedRange<UInt64>, stopAtFirstFailure: Bool) -> [(UInt64, SimulationVerdict)] {
        signal(SIGPIPE, SIG_IGN)
        let queue = SeedQueue(seeds, stopAtFirstFailure: stopAtFirstFailure)
        let done = DispatchGroup()
        for _ in 0..<max(1, count) {
            done.enter()
            let thread = Thread { [self] in
                defer { done.leave() }
                drain(queue)
            }
            thread.start()
        }
        done.wait()
        return queue.verdicts
    }

    /// One worker slot: takes seeds until there are none, starting a process when it has none.
    private func drain(_ queue: SeedQueue) {
        var worker: Worker?
        var ran = 0
        while let seed = queue.take() {
            do {
                if worker == nil || ran == seedsPerWorker {
                    worker?.stop()
                    worker = try Worker(executable: executable, arguments: arguments)
                    ran = 0
                }
                ran += 1
                queue.record(seed, try worker!.run(seed))
            } catch {
                queue.record(
                    seed,
                    SimulationVerdict(
                        violations: [SimulationViolation(Self.crashed, "\(error)")],
                        steps: 0,
                        seconds: 0,
                        trace: []
                    )
                )
                worker?.stop()
                worker = nil
            }
        }
        worker?.stop()
    }
}

/// The seeds still to run, and the verdicts so far.
private final class SeedQueue: Sendable {
    private struct State {
        var next: UInt64
        var failed = false
        var verdicts: [(UInt64, SimulationVerdict)] = []
    }

    private let last: UInt64
    private let stopAtFirstFailure: Bool
    private let state: Mutex<State>

    init(_ seeds: ClosedRange<UInt64>, stopAtFirstFailure: Bool) {
        last = seeds.upperBound
        self.stopAtFirstFailure = stopAtFirstFailure
        state = Mutex(State(next: seeds.lowerBound))
    }

    /// The next seed to run; nil when none is left (or one failed and the sweep stops there).
    func take() -> UInt64? {
        state.withLock { state in
            guard state.next <= last, !(stopAtFirstFailure && state.failed) else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func record(_ seed: UInt64, _ verdict: SimulationVerdict) {
        state.withLock { state in
            state.verdicts.append((seed, verdict))
            if !verdict.passed { state.failed = true }
        }
    }

    var verdicts: [(UInt64, SimulationVerdict)] { state.withLock { $0.verdicts } }
}

/// One worker process and the two pipes to it.
private final class Worker {
    private let process: ChildProcess
    private let input: FileHandle
    private let output: LineReader

    init(executable: String, arguments: [String]) throws {
        let stdin = Pipe()
        let stdout = Pipe()
        process = try ChildProcess(
            executable: executable,
            arguments: arguments,
            environment: ProcessInfo.processInfo.environment,
            directory: FileManager.default.currentDirectoryPath,
            streams: [stdin.fileHandleForReading.fileDescriptor, stdout.fileHandleForWriting.fileDescriptor, 2]
        )
        // The child's ends are the child's: its output ends for us when it exits.
        try? stdin.fileHandleForReading.close()
        try? stdout.fileHandleForWriting.close()
        input = stdin.fileHandleForWriting
        output = LineReader(stdout.fileHandleForReading)
    }

    /// Runs `seed` in the process and returns its verdict. Lines of the worker's output that
    /// are not its answer (something the run printed) go to standard error.
    func run(_ seed: UInt64) throws -> SimulationVerdict {
        // A worker that has ended refuses the write (SIGPIPE is ignored); the read says how it ended.
        try? input.write(contentsOf: Data("\(seed)\n".utf8))
        while let line = output.next() {
            guard let answer = try? JSONDecoder().decode(SeedWorkers.Answer.self, from: Data(line)) else {
                FileHandle.standardError.write(Data(line + [UInt8(ascii: "\n")]))
                continue
            }
            guard answer.seed == seed else {
                throw WorkerEnded(description: "the worker answered for seed \(answer.seed), not \(seed)")
            }
            return answer.verdict
        }
        process.waitUntilExit()
        let ending =
            process.terminationReason == .uncaughtSignal
            ? "signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
        throw WorkerEnded(description: "the worker running seed \(seed) ended (\(ending)) without a verdict")
    }

    /// Closes its input (a worker ends at the end of its input) and waits for it.
    func stop() {
        try? input.close()
        process.waitUntilExit()
    }

    struct WorkerEnded: Error, CustomStringConvertible {
        let description: String
    }
}

/// Reads lines from a file handle, blocking.
private final class LineReader {
    private let handle: FileHandle
    private var buffered: [UInt8] = []

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line without its newline; nil at the end of the stream.
    func next() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffered.removeSubrange(...newline) }
                return Array(buffered[..<newline])
            }
            let count = read(handle.fileDescriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }
}

extension SeedSweep {
    /// The arguments that start a worker running seeds as this sweep does.
    var workerArguments: [String] {
        ["--worker", "--devices", "\(devices)", "--steps", "\(steps)"]
            + (only.map { ["--workloads", $0.joined(separator: ",")] } ?? []) + (restores ? ["--restores"] : [])
    }

    /// A worker's side: runs each seed read from standard input, one per line, and writes
    /// its ``SeedWorkers/Answer`` (the verdict without its trace) as a line of JSON; returns
    /// at the end of the input.
    public func serveSeeds() async throws {
        while let line = readLine() {
            guard let seed = UInt64(line.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationFailure(description: "a worker reads seeds, one per line, not \(line)")
            }
            var verdict = await run(seed)
            verdict.trace = []
            // Unbuffered: the sweep waits for this line.
            FileHandle.standardOutput.write(try JSONEncoder().encode(SeedWorkers.Answer(seed: seed, verdict: verdict)) + Data("\n".utf8))
        }
    }

    struct ValidationFailure: Error, CustomStringConvertible {
        let description: String
    }
}
