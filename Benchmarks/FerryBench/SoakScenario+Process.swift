import Foundation

extension SoakScenario {
    /// Runs the soak in a `ferry-bench --only soak` process of its own and adds its figures.
    ///
    /// The soak measures a runner's share of a core while it idles; after the other
    /// scenarios, this process still carries their threads and pools (asleep, it used
    /// 1.15% of a core where a fresh one uses 0.05%), which the figure would count.
    static func inOwnProcess(smoke: Bool, report: Report) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-bench-soak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--only", "soak", "--out", folder.path] + (smoke ? ["--smoke"] : [])
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the soak's own process exited \(process.terminationStatus)")
        }
        struct Results: Decodable { var figures: [Figure] }
        let results = try JSONDecoder().decode(
            Results.self,
            from: Data(contentsOf: folder.appendingPathComponent("results.json"))
        )
        for figure in results.figures where figure.scenario == "soak" { report.add(figure) }
    }
}
