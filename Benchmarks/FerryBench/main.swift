import FerryServer
import Foundation
import GRDBSQLite

/// ferry-bench: Ferry's performance suite. Every figure is printed next to a baseline
/// measured in the same run (raw libsqlite3, or a plain HTTP request loop) and the ratio.
///
///     swift run -c release ferry-bench [--smoke] [--sizes 1000,100000,1000000] [--only a,b] [--out DIR]
///
/// Scenarios: local, bursts, writers, drain, pull, reads (with the memory tier and a watch), growth,
/// coalescing, recipes, startup, soak.
struct Options {
    var smoke = false
    var sizes = [1000, 100_000, 1_000_000]
    var only: Set<String>?
    var out: String?

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--smoke": smoke = true
            case "--sizes":
                guard let value = iterator.next() else {
                    throw BenchError("--sizes needs a list, e.g. --sizes 1000,100000")
                }
                sizes = try value.split(separator: ",").map {
                    guard let size = Int($0), size > 0 else {
                        throw BenchError("--sizes: \($0) is not a positive number")
                    }
                    return size
                }
            case "--only":
                guard let value = iterator.next() else {
                    throw BenchError("--only needs a list, e.g. --only local,growth")
                }
                only = Set(value.split(separator: ",").map(String.init))
            case "--out":
                guard let value = iterator.next() else { throw BenchError("--out needs a folder") }
                out = value
            case "-h", "--help":
                print(
                    "usage: ferry-bench [--smoke] [--sizes 1000,100000,1000000] [--only local,bursts,writers,drain,pull,reads,growth,coalescing,recipes,startup,soak] [--out DIR]"
                )
                exit(0)
            default:
                throw BenchError("unknown argument \(argument); see --help")
            }
        }
        if smoke { sizes = [200, 1000] }
    }

    func wants(_ scenario: String) -> Bool { only?.contains(scenario) ?? true }
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
        separator: " "
    ) ?? "?"
}

do {
    if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--watch-writer" {
        try WatchScenario.writer(path: CommandLine.arguments[2], count: Int(CommandLine.arguments[3]) ?? 1)
        exit(0)
    }
    if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--serve" {
        guard let port = Int(CommandLine.arguments[2]) else { throw BenchError("--serve needs a port") }
        try await DrainScenario.serve(port: port)
    }
    if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--serve-bare" {
        guard let port = Int(CommandLine.arguments[2]) else { throw BenchError("--serve-bare needs a port") }
        try await BareServer.serve(port: port)
    }
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let harness = try Harness()
    defer { harness.cleanUp() }
    let report = Report()
    report.machine = [
        "cores": "\(ProcessInfo.processInfo.activeProcessorCount)",
        "memory_gib": String(format: "%.1f", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824),
        "sqlite": RawSQLite.version,
        "os": ProcessInfo.processInfo.operatingSystemVersionString,
        "load_average_start": loadAverage(),
        "started": ISO8601DateFormatter().string(from: Date()),
        "mode": options.smoke ? "smoke" : "full",
        "sizes": options.sizes.map(String.init).joined(separator: ","),
    ]
    say(
        "ferry-bench: \(report.machine["cores"]!) cores, \(report.machine["memory_gib"]!) GiB, SQLite \(RawSQLite.version), load \(loadAverage())"
    )
    say(Report.header)
    let smoke = options.smoke
    if options.wants("local") {
        let scenario = LocalWriteScenario(harness: harness, report: report, smoke: smoke)
        for size in options.sizes { try await scenario.run(size: size, durability: .normal) }
        for size in options.sizes { try await scenario.run(size: size, durability: .full) }
    }
    if options.wants("bursts"), let largest = options.sizes.max() {
        let scenario = LocalWriteScenario(harness: harness, report: report, smoke: smoke)
        try await scenario.run(size: largest, durability: .normal, inBursts: true)
    }
    if options.wants("writers") {
        try await ConcurrentWritersScenario(harness: harness, report: report, smoke: smoke).run()
    }
    if options.wants("drain") {
        var scenario = DrainScenario(harness: harness, report: report, smoke: smoke)
        // The smallest size, and the most a drain measures (5,000): at 1,000 the eight
        // batches in flight of the kernel's defaults never fill the pipeline, so the
        // sustained drain is measured apart.
        let smallest = options.sizes.min() ?? 1000
        let counts = smoke ? [smallest] : Array(Set([smallest, DrainScenario.most])).sorted()
        for count in counts { try await scenario.run(count: count) }
        if let url = ProcessInfo.processInfo.environment["FERRY_BENCH_POSTGRES_URL"], !url.isEmpty {
            scenario.postgres = try PostgresLocation(url: url)
            for count in counts { try await scenario.run(count: count) }
        }
    }
    if options.wants("pull") {
        let scenario = PullScenario(harness: harness, report: report, smoke: smoke)
        try await scenario.run(count: smoke ? 40 : 10_000)
    }
    if options.wants("reads") {
        try await ReadsScenario(harness: harness, report: report, smoke: smoke).run()
        try await TieredReadsScenario(harness: harness, report: report, smoke: smoke).run()
        try await WatchScenario(harness: harness, report: report, smoke: smoke).run()
    }
    if options.wants("growth") {
        let scenario = GrowthScenario(harness: harness, report: report, smoke: smoke)
        for size in options.sizes { try await scenario.run(pending: size) }
    }
    if options.wants("coalescing") {
        try await CoalescingScenario(harness: harness, report: report, smoke: smoke).run()
    }
    if options.wants("recipes") {
        try await RecipeSaveScenario(harness: harness, report: report, smoke: smoke).run()
    }
    if options.wants("startup") {
        try await StartupScenario(harness: harness, report: report, smoke: smoke).run()
    }
    if options.wants("soak") {
        if options.only == ["soak"] {
            try await SoakScenario(harness: harness, report: report, smoke: smoke).run()
        } else {
            try SoakScenario.inOwnProcess(smoke: smoke, report: report)
        }
    }
    report.machine["load_average_end"] = loadAverage()
    report.machine["finished"] = ISO8601DateFormatter().string(from: Date())
    let out = URL(
        fileURLWithPath: options.out ?? (smoke ? NSTemporaryDirectory() + "ferry-bench-smoke" : "Benchmarks/results")
    )
    try report.write(to: out)
    say("wrote \(out.path)/results.json, results.md\(report.growth.isEmpty ? "" : ", growth.svg")")
    if smoke, report.figures.contains(where: { $0.scenario == "coalescing" && $0.met == false }) {
        print("smoke: coalescing produced more than one send")
        exit(1)
    }
} catch {
    FileHandle.standardError.write(Data("ferry-bench: \(error)\n".utf8))
    exit(1)
}
