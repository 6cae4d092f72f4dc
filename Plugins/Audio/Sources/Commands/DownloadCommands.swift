import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry audio download album|collection ID`.
struct DownloadCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Keep an album or a collection on this device; `ferry run` fetches it on Wi-Fi.",
        discussion: Examples.discussion(
            "A track is downloaded with its album, or cached ahead by `ferry audio play TRACK`.",
            examples: ["ferry audio download album alb_demo_1", "ferry audio download collection col_demo_favourites"]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("What to download: album or collection.", valueName: "kind")) var target: DownloadTarget
    @Argument(help: ArgumentHelp("Its id (`ferry audio albums`, `ferry audio collections`).", valueName: "id")) var id: String

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        let plan: DownloadPlan
        switch target {
        case .album: plan = try await audio.download(album: id)
        case .collection: plan = try await audio.download(collection: id)
        }
        if global.json { return try global.output.printJSON(plan) }
        guard plan.alreadyDownloaded < plan.tracks else {
            return print("\(plan.title): all \(plan.tracks) tracks are already on this device")
        }
        print(
            "\(plan.title): \(plan.tracks - plan.alreadyDownloaded) of \(plan.tracks) tracks (\(ByteCount(plan.bytes))) to download; `ferry run` fetches them"
        )
        if let held = plan.held { Output.warn(held) }
    }
}

/// `ferry audio remove album|collection ID`.
struct RemoveCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Stop keeping an album, a collection or a stream-cached track (downloads in progress are cancelled).",
        discussion: Examples.discussion(examples: [
            "ferry audio remove album alb_demo_1", "ferry audio remove collection col_demo_new --yes",
            "ferry audio remove track trk_demo-a2-t1",
        ])
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("What to remove: album, collection or track.", valueName: "kind")) var target: AudioTarget
    @Argument(help: ArgumentHelp("Its id (`ferry audio downloads`).", valueName: "id")) var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    /// What `--json` prints: what was removed, and the downloaded collections that still
    /// keep an album.
    struct Removed: Encodable {
        let target, removed: String
        let keptBy: [String]
    }

    func run(in runtime: FerryRuntime) async throws {
        let audio = try AudioLibrary(runtime: runtime)
        try Prompt.confirmOrStop(
            "Remove the download of \(target.rawValue) \(id) from this device?",
            assumeYes: yes,
            unchanged: "nothing was removed"
        )
        switch target {
        case .album:
            let holders = try await audio.remove(album: id)
            if global.json { return try global.output.printJSON(Removed(target: target.rawValue, removed: id, keptBy: holders)) }
            print(
                holders.isEmpty
                    ? "album \(id) removed from this device"
                    : "album \(id) is no longer kept on its own; downloaded collection \(holders.joined(separator: ", ")) still keeps it"
            )
        case .collection:
            try await audio.remove(collection: id)
            if global.json { return try global.output.printJSON(Removed(target: target.rawValue, removed: id, keptBy: [])) }
            print("collection \(id) removed; its albums that nothing else keeps are gone from this device")
        case .track:
            try await audio.remove(track: id)
            if global.json { return try global.output.printJSON(Removed(target: target.rawValue, removed: id, keptBy: [])) }
            print("track \(id) is no longer cached ahead; its download, if any, is cancelled")
        }
    }
}
