import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry audio downloads [--watch]`: the four sections of the downloads screen.
struct DownloadsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "downloads",
        abstract: "Show downloads in progress, downloaded albums and collections, and stream-cached tracks.",
        discussion: "Examples:\n  ferry audio downloads\n  ferry audio downloads --watch   (while `ferry run` works)\n  ferry audio downloads --json"
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Redraw every second until interrupted (on a terminal only).") var watch = false

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        if global.json { return try Output(json: true).printJSON(try await audio.downloads()) }
        guard watch, Output.isTerminal else { return print(Self.render(try await audio.downloads()), terminator: "") }
        while !Task.isCancelled {
            let screen = Self.render(try await audio.downloads())
            print("\u{1B}[H\u{1B}[2J" + screen, terminator: "")
            try await Task.sleep(for: .seconds(1))
        }
    }

    static func render(_ view: DownloadsView) -> String {
        var out = "In progress"
        if view.inProgress.isEmpty {
            out += ": nothing\n"
        } else {
            out += " (\(percent(view.received, view.total)) of \(ByteCount(view.total)))\n"
            out += Output.render(
                ["TRACK", "FILE", "PROGRESS", "STATE"],
                view.inProgress.map {
                    [$0.title, $0.file, "\(ByteCount($0.received)) / \(ByteCount($0.total)) (\(percent($0.received, $0.total)))", $0.state]
                }
            )
        }
        out += "\nDownloaded albums"
        if view.albums.isEmpty {
            out += ": none\n"
        } else {
            out += "\n"
            out += Output.render(
                ["ID", "TITLE", "TRACKS", "SIZE", "KEPT"],
                view.albums.map {
                    [
                        $0.id, $0.title, "\($0.downloaded)/\($0.tracks)", "\(ByteCount($0.bytes))",
                        ($0.explicit ? ["explicit"] : []).joined() + ($0.collections.isEmpty ? "" : ($0.explicit ? ", " : "") + "via " + $0.collections.joined(separator: ", ")),
                    ]
                }
            )
        }
        out += "\nDownloaded collections"
        if view.collections.isEmpty {
            out += ": none\n"
        } else {
            out += "\n" + Output.render(["ID", "NAME", "ALBUMS"], view.collections.map { [$0.id, $0.name, "\($0.albums.count)"] })
        }
        out += "\nStream-cached"
        if view.cached.isEmpty {
            out += ": none\n"
        } else {
            out += "\n"
            out += Output.render(
                ["TRACK", "FILE", "SIZE", "LAST PLAYED"],
                view.cached.map { [$0.title, $0.file, "\(ByteCount($0.bytes))", $0.lastPlayed.map { ISO8601DateFormatter().string(from: $0) } ?? "never"] }
            )
        }
        out += "\n\(ByteCount(view.usedBytes)) of \(ByteCount(view.maxBytes)) used (plugins.audio.max_size)\n"
        return out
    }

    static func percent(_ part: Int64, _ whole: Int64) -> String {
        whole > 0 ? "\(Int((Double(part) / Double(whole) * 100).rounded(.down)))%" : "0%"
    }
}
