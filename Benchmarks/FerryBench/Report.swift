import Foundation

/// One figure of the report, next to its same-run baseline.
struct Figure: Codable {
    var scenario: String
    var size: String
    var metric: String
    var unit: String
    var ferry: Double
    var baseline: Double?
    var baselineName: String?
    /// ferry / baseline.
    var ratio: Double? {
        guard let baseline, baseline > 0 else { return nil }
        return ferry / baseline
    }
    var target: String?
    var met: Bool?

    enum CodingKeys: String, CodingKey {
        case scenario, size, metric, unit, ferry, baseline
        case baselineName = "baseline_name"
        case ratio, target, met
    }

    init(
        scenario: String,
        size: String,
        metric: String,
        unit: String,
        ferry: Double,
        baseline: Double? = nil,
        baselineName: String? = nil,
        target: String? = nil,
        met: Bool? = nil
    ) {
        (self.scenario, self.size, self.metric, self.unit, self.ferry) = (scenario, size, metric, unit, ferry)
        (self.baseline, self.baselineName, self.target, self.met) = (baseline, baselineName, target, met)
    }

    /// Reads a figure back from `results.json` (the ratio is computed again).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            scenario: try container.decode(String.self, forKey: .scenario),
            size: try container.decode(String.self, forKey: .size),
            metric: try container.decode(String.self, forKey: .metric),
            unit: try container.decode(String.self, forKey: .unit),
            ferry: try container.decode(Double.self, forKey: .ferry),
            baseline: try container.decodeIfPresent(Double.self, forKey: .baseline),
            baselineName: try container.decodeIfPresent(String.self, forKey: .baselineName),
            target: try container.decodeIfPresent(String.self, forKey: .target),
            met: try container.decodeIfPresent(Bool.self, forKey: .met)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(size, forKey: .size)
        try container.encode(metric, forKey: .metric)
        try container.encode(unit, forKey: .unit)
        try container.encode(ferry, forKey: .ferry)
        try container.encodeIfPresent(baseline, forKey: .baseline)
        try container.encodeIfPresent(baselineName, forKey: .baselineName)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(met, forKey: .met)
    }
}

/// A point of the growth chart: per-operation cost at a queue size.
struct GrowthPoint: Codable {
    var pending: Int
    var enqueueMicros: Double
    var chooseAckMicros: Double
    var rawEnqueueMicros: Double
    var rawChooseAckMicros: Double
}

/// Collects figures, prints them as a table and writes JSON and the SVG chart.
final class Report {
    var figures: [Figure] = []
    var growth: [GrowthPoint] = []
    var machine: [String: String] = [:]
    var fsyncProbes: [String: Double] = [:]

    func add(_ figure: Figure) {
        figures.append(figure)
        say(Self.line(figure))
    }

    static func format(_ value: Double) -> String {
        if value >= 1000 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    static func line(_ f: Figure) -> String {
        let base = f.baseline.map(format) ?? "-"
        let ratio = f.ratio.map { String(format: "%.2fx", $0) } ?? "-"
        let verdict = f.met.map { $0 ? "met" : "MISSED" } ?? ""
        return [
            f.scenario.padding(toLength: 22, withPad: " ", startingAt: 0),
            f.size.padding(toLength: 9, withPad: " ", startingAt: 0),
            f.metric.padding(toLength: 30, withPad: " ", startingAt: 0),
            (format(f.ferry) + " " + f.unit).padding(toLength: 16, withPad: " ", startingAt: 0),
            (base).padding(toLength: 10, withPad: " ", startingAt: 0),
            ratio.padding(toLength: 9, withPad: " ", startingAt: 0),
            (f.target ?? "").padding(toLength: 22, withPad: " ", startingAt: 0),
            verdict,
        ].joined(separator: " ")
    }

    static var header: String {
        [
            "scenario".padding(toLength: 22, withPad: " ", startingAt: 0), "size     ",
            "metric".padding(toLength: 30, withPad: " ", startingAt: 0), "ferry           ", "baseline  ", "ratio    ",
            "target".padding(toLength: 22, withPad: " ", startingAt: 0), "verdict",
        ].joined(separator: " ")
    }

    /// The Markdown table for docs/performance.md.
    func markdown() -> String {
        var lines = [
            "| Scenario | Size | Metric | Ferry | Baseline | Ratio | Target | Verdict |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for f in figures {
            let base = f.baseline.map { Self.format($0) + " (\(f.baselineName ?? "raw"))" } ?? "-"
            let ratio = f.ratio.map { String(format: "%.2fx", $0) } ?? "-"
            let verdict = f.met.map { $0 ? "met" : "**missed**" } ?? ""
            lines.append(
                "| \(f.scenario) | \(f.size) | \(f.metric) | \(Self.format(f.ferry)) \(f.unit) | \(base) | \(ratio) | \(f.target ?? "") | \(verdict) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        struct Output: Encodable {
            var machine: [String: String]
            var fsyncProbes: [String: Double]
            var figures: [Figure]
            var growth: [GrowthPoint]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Output(machine: machine, fsyncProbes: fsyncProbes, figures: figures, growth: growth))
            .write(to: directory.appendingPathComponent("results.json"))
        try markdown().write(to: directory.appendingPathComponent("results.md"), atomically: true, encoding: .utf8)
        if !growth.isEmpty {
            try GrowthChart(points: growth).svg().write(
                to: directory.appendingPathComponent("growth.svg"),
                atomically: true,
                encoding: .utf8
            )
        }
    }
}

/// Per-operation cost against queue size, as an SVG line chart (log-scaled x).
struct GrowthChart {
    var points: [GrowthPoint]

    func svg() -> String {
        let width = 720.0
        let height = 420.0
        let left = 70.0
        let right = 200.0
        let top = 40.0
        let bottom = 60.0
        let sorted = points.sorted { $0.pending < $1.pending }
        let series: [(String, String, (GrowthPoint) -> Double)] = [
            ("Ferry enqueue", "#d62728", { $0.enqueueMicros }),
            ("Ferry choose+ack", "#1f77b4", { $0.chooseAckMicros }),
            ("raw enqueue", "#ff9896", { $0.rawEnqueueMicros }),
            ("raw choose+ack", "#aec7e8", { $0.rawChooseAckMicros }),
        ]
        let maxY = max(1, sorted.flatMap { p in series.map { $0.2(p) } }.max() ?? 1) * 1.15
        let xs = sorted.map { log10(Double(max($0.pending, 1))) }
        let minX = (xs.min() ?? 3) - 0.3
        let maxX = (xs.max() ?? 6) + 0.3
        func x(_ v: Double) -> Double { left + (v - minX) / max(maxX - minX, 0.01) * (width - left - right) }
        func y(_ v: Double) -> Double { top + (1 - v / maxY) * (height - top - bottom) }
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="14">Per-operation cost (µs) against pending operations</text>
            <line x1="\(left)" y1="\(y(0))" x2="\(width - right)" y2="\(y(0))" stroke="black"/>
            <line x1="\(left)" y1="\(top)" x2="\(left)" y2="\(y(0))" stroke="black"/>

            """
        for tick in 0...4 {
            let value = maxY / 4 * Double(tick)
            out += "<text x=\"\(left - 8)\" y=\"\(y(value) + 4)\" text-anchor=\"end\">\(Report.format(value))</text>\n"
            out +=
                "<line x1=\"\(left)\" y1=\"\(y(value))\" x2=\"\(width - right)\" y2=\"\(y(value))\" stroke=\"#eee\"/>\n"
        }
        for (p, lx) in zip(sorted, xs) {
            out += "<text x=\"\(x(lx))\" y=\"\(y(0) + 18)\" text-anchor=\"middle\">\(p.pending)</text>\n"
        }
        out +=
            "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 15)\" text-anchor=\"middle\">pending operations (log scale)</text>\n"
        for (index, (name, color, value)) in series.enumerated() {
            let path = zip(sorted, xs).map { "\(x($1)),\(y(value($0)))" }.joined(separator: " ")
            let dash = name.hasPrefix("raw") ? " stroke-dasharray=\"5,4\"" : ""
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash) points=\"\(path)\"/>\n"
            for (p, lx) in zip(sorted, xs) {
                out += "<circle cx=\"\(x(lx))\" cy=\"\(y(value(p)))\" r=\"3\" fill=\"\(color)\"/>\n"
            }
            let ly = top + 20 + Double(index) * 20
            out +=
                "<line x1=\"\(width - right + 15)\" y1=\"\(ly)\" x2=\"\(width - right + 40)\" y2=\"\(ly)\" stroke=\"\(color)\" stroke-width=\"2\"\(dash)/>\n"
            out += "<text x=\"\(width - right + 45)\" y=\"\(ly + 4)\">\(name)</text>\n"
        }
        return out + "</svg>\n"
    }
}

/// Prints a line at once, even when stdout is a file or a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
