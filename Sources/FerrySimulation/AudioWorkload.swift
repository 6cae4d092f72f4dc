import AudioPlugin
import Foundation
import SyncKernel
import SyncKernelTesting

/// Albums and collections kept for offline play, removed again, and tracks played (which,
/// on Wi-Fi, caches the next ones ahead), on each device, within a storage cap of
/// `AudioWorkload.cap` bytes: two demo albums fit, a third does not, and tracks cached
/// ahead are evicted least recently played first. Now and then the server's operator gives
/// a collection other albums (`curate`, drawn on a device's turn; the device plays no part),
/// which devices that keep it reconcile: a kept collection may grow past the cap. (The
/// demo's album whose file never matches its checksum is left out: its download ends a
/// dead letter, as it should.)
///
/// Checks after every step: no track file was asked for while the device's link was
/// metered or offline; the complete files on disk take at most the cap; each of them has
/// the size and SHA-256 the server lists. Once the world has settled: each device keeps
/// each album for exactly the reasons it should (downloaded explicitly; held by the kept
/// collections the server says hold it), and, where what it keeps fits the cap, every file
/// of it is on the device. A download that does not fit waits for room, saying why (and ends
/// dead for a person after its attempts).
final class AudioWorkload: SimulationWorkload, @unchecked Sendable {
    let name = "audio"
    /// `max_size` of the devices' audio plugin.
    static let cap: Int64 = 150_000
    static let albums = ["alb_demo_1", "alb_demo_2", "alb_demo_3", "alb_demo_1_deluxe"]
    static let collections = ["col_demo_favourites", "col_demo_new"]

    /// What each device keeps, as its last acknowledged keep or drop left it.
    private var kept: [Int: Set<String>] = [:]
    /// How far into each device's requests the metered check has read.
    private var requestsRead: [Int: Int] = [:]
    /// The server's checksum of each part key, once read.
    private var checksums: [String: String]?
    /// Files already verified, as `device/name/size`.
    private var verified: Set<String> = []

    func draw(device: Int, using random: inout SeededRandom) -> String {
        let album = Self.albums.randomElement(using: &random)!
        let collection = Self.collections.randomElement(using: &random)!
        let track = "demo-a\(Int.random(in: 1...3, using: &random))-t\(Int.random(in: 1...3, using: &random)).wav"
        let members = Self.albums.filter { _ in random.chance(0.5) }
        return random.weighted([
            ("keep album \(album)", 3), ("keep collection \(collection)", 1), ("drop album \(album)", 2),
            ("drop collection \(collection)", 1), ("play \(track)", 4),
            ("curate \(collection) \(members.isEmpty ? "-" : members.joined(separator: ","))", 1),
        ])
    }

    func perform(_ action: String, on device: SimulatedDevice, in world: SimulationWorld) async throws {
        let words = action.split(separator: " ").map(String.init)
        if words.first == "curate", words.count == 3 {
            return try await curate(words[1], albums: words[2] == "-" ? [] : words[2].split(separator: ",").map(String.init), in: world)
        }
        let audio = try AudioLibrary(runtime: device.runtime)
        switch (words.first, words.count > 1 ? words[1] : "", words.count) {
        case ("keep", "album", 3): _ = try await audio.download(album: words[2])
        case ("keep", "collection", 3): _ = try await audio.download(collection: words[2])
        case ("drop", "album", 3): try await audio.remove(album: words[2])
        case ("drop", "collection", 3): try await audio.remove(collection: words[2])
        case ("play", let track, 2):
            // The rest of its album plays next.
            let number = Int(String(track.dropLast(4).last ?? "3")) ?? 3
            let next = (number..<3).map { "\(track.dropLast(6))t\($0 + 1).wav" }
            _ = try await audio.play(track: track, next: next)
            return
        default: throw FerryError(.usage, "unknown audio action \(action)")
        }
        let thing = "\(words[1]) \(words[2])"
        if words[0] == "keep" { kept[device.index, default: []].insert(thing) } else { kept[device.index]?.remove(thing) }
    }

    func checkStep(_ world: SimulationWorld) async throws -> [SimulationViolation] {
        var violations: [SimulationViolation] = []
        for device in world.devices {
            let sent = device.sentRequests
            let read = requestsRead[device.index] ?? 0
            for request in sent[read...] where request.path.hasPrefix("/v1/audio/files/") && request.link != .unmetered {
                violations.append(
                    SimulationViolation("metered-download", "device \(device.index) asked for \(request.path) on a \(request.link.rawValue) link")
                )
            }
            requestsRead[device.index] = sent.count
            let files = try Self.completeFiles(on: device)
            let bytes = files.values.reduce(0, +)
            if bytes > Self.cap {
                violations.append(
                    SimulationViolation("over-cap", "device \(device.index) holds \(bytes) bytes of tracks (\(files.keys.sorted())), past its cap of \(Self.cap)")
                )
            }
            violations += try await verify(files, on: device, in: world)
        }
        return violations
    }

    /// The server's operator gives `collection` the albums `albums` (`PUT
    /// /admin/audio/collections/{id}`). Throws when the server does not take it (it is down).
    private func curate(_ collection: String, albums: [String], in world: SimulationWorld) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["album_ids": albums])
        let answer = try await world.ask(
            "PUT",
            "/admin/audio/collections/\(collection)",
            headers: [("Authorization", "Bearer \(SimulatedFerryServer.adminToken)"), ("Content-Type", "application/json")],
            body: body
        )
        guard (200..<300).contains(answer.status) else {
            throw FerryError(.rejected, "the server answered \(answer.status) to the curation of \(collection)")
        }
    }

    /// A restore takes nothing away from what a device keeps; a collection may go back to
    /// the albums it had at the backup, which the devices that keep it reconcile.
    var followsRestores: Bool { true }

    /// A download refused for room (a kept collection that grew past the cap) ends dead
    /// after its attempts, for the person to make room: where what the device keeps fits,
    /// the settled check finds its files missing.
    func needsPerson(_ operation: QueuedOperation) -> Bool {
        operation.lastError?.contains("does not fit:") == true
    }

    /// A device forgets what it kept once another account signs in there
    /// (`AudioPlugin.removeFilesForSignOut`).
    func anotherAccountSignedIn(on device: Int) {
        kept[device] = nil
    }

    func check(_ world: SimulationWorld) async throws -> [SimulationViolation] {
        var violations = try await checkStep(world)
        guard let library = try await serverLibrary(world) else {
            throw FerryError(.needsLogin, "no device could read the server's audio library once the world settled")
        }
        for device in world.devices {
            let albums = try await AudioLibrary(runtime: device.runtime).albums()
            let things = kept[device.index] ?? []
            let explicit = Set(things.filter { $0.hasPrefix("album ") }.map { String($0.dropFirst(6)) })
            let collections = things.filter { $0.hasPrefix("collection ") }.map { String($0.dropFirst(11)) }.sorted()
            func holders(_ album: String) -> [String] { collections.filter { library.members[$0]?.contains(album) == true } }
            for album in albums where album.explicit != explicit.contains(album.id) || album.collections.sorted() != holders(album.id) {
                violations.append(
                    SimulationViolation("ownership", "device \(device.index) keeps \(album.id) \(album.explicit ? "explicitly" : "not explicitly") and for \(album.collections.sorted()), where it kept \(explicit.sorted()) explicitly and the server's collections \(collections) hold it in \(holders(album.id))")
                )
            }
            let wanted = albums.filter { explicit.contains($0.id) || !holders($0.id).isEmpty }.map(\.id)
            let files = Set(wanted.flatMap { library.files[$0] ?? [] })
            guard files.reduce(0, { $0 + (library.sizes[$1] ?? 0) }) <= Self.cap else {
                violations += try await checkWaitingForRoom(files, kept: wanted, on: device)
                continue
            }
            let missing = albums.filter { wanted.contains($0.id) && $0.downloaded < $0.tracks }
            if !missing.isEmpty {
                violations.append(
                    SimulationViolation("not-downloaded", "device \(device.index) keeps \(wanted), which fit its cap, but \(missing.map { "\($0.id) has \($0.downloaded) of \($0.tracks) tracks" }) once the world settled")
                )
            }
        }
        return violations
    }

    /// What a device keeps past its cap (a kept collection grew): each of its files that is
    /// not on the device waits for room, saying why.
    private func checkWaitingForRoom(_ files: Set<String>, kept: [String], on device: SimulatedDevice) async throws -> [SimulationViolation] {
        let onDisk = try Self.completeFiles(on: device)
        var reasons: [String: String] = [:]
        for operation in try await device.operations() where operation.plugin == AudioPlugin.name && operation.kind == "download" {
            reasons[operation.entity] = operation.lastError ?? ""
        }
        let silent = files.filter { onDisk[$0] == nil && reasons[$0]?.contains("does not fit") != true }.sorted()
        guard !silent.isEmpty else { return [] }
        return [
            SimulationViolation("not-downloaded", "device \(device.index) keeps \(kept), past its cap, and \(silent) are neither on it nor waiting for room (\(silent.map { reasons[$0] ?? "no download" }))")
        ]
    }

    /// The server's library as the checks need it: each collection's albums, each album's
    /// files, each file's size and SHA-256.
    private struct ServerLibrary {
        var members: [String: Set<String>] = [:]
        var files: [String: [String]] = [:]
        var sizes: [String: Int64] = [:]
        var checksums: [String: String] = [:]
    }

    /// The server's library now, read as the first device that can ask (signed in) sees it.
    private func serverLibrary(_ world: SimulationWorld) async throws -> ServerLibrary? {
        for device in world.devices {
            guard let albums = try? await world.json("/v1/audio/albums", as: device)["albums"] as? [[String: Any]],
                let collections = try? await world.json("/v1/audio/collections", as: device)["collections"] as? [[String: Any]]
            else { continue }
            var library = ServerLibrary()
            for collection in collections {
                library.members[collection["id"] as? String ?? ""] = Set(collection["album_ids"] as? [String] ?? [])
            }
            for album in albums {
                let tracks = (album["tracks"] as? [[String: Any]]) ?? []
                library.files[album["id"] as? String ?? ""] = tracks.compactMap { $0["part_key"] as? String }
                for track in tracks {
                    guard let key = track["part_key"] as? String else { continue }
                    library.sizes[key] = (track["byte_size"] as? NSNumber)?.int64Value
                    library.checksums[key] = track["sha256"] as? String
                }
            }
            return library
        }
        return nil
    }

    /// Each new complete file has the size and checksum the server lists for it.
    private func verify(_ files: [String: Int64], on device: SimulatedDevice, in world: SimulationWorld) async throws -> [SimulationViolation] {
        var violations: [SimulationViolation] = []
        for (name, size) in files.sorted(by: { $0.key < $1.key }) where !verified.contains("\(device.index)/\(name)/\(size)") {
            guard let checksums = try await serverChecksums(world) else { return violations }
            let url = URL(fileURLWithPath: Self.tracks(of: device)).appendingPathComponent(name)
            let digest = try SHA256Hasher.hex(fileAt: url)
            if checksums[name] == digest {
                verified.insert("\(device.index)/\(name)/\(size)")
            } else {
                violations.append(
                    SimulationViolation("unverified", "device \(device.index) holds \(name) (\(size) bytes) whose SHA-256 is not the one the server lists")
                )
            }
        }
        return violations
    }

    /// The server's checksums by part key (which no run changes), read once a device can
    /// ask (signed in).
    private func serverChecksums(_ world: SimulationWorld) async throws -> [String: String]? {
        if let checksums { return checksums }
        checksums = try await serverLibrary(world)?.checksums
        return checksums
    }

    /// The folder of the device's audio files.
    static func tracks(of device: SimulatedDevice) -> String {
        device.directory + "/\(AudioPlugin.name)/tracks"
    }

    /// The complete files on the device's disk (not the partial ones a download writes
    /// first), by name, with their sizes. (Read with `stat`: Foundation's attributes of a
    /// file, owner names and all, were a twentieth of a run's time, checked every step.)
    static func completeFiles(on device: SimulatedDevice) throws -> [String: Int64] {
        let folder = tracks(of: device)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var files: [String: Int64] = [:]
        for name in names where !name.hasPrefix(".") {
            var status = stat()
            guard stat(folder + "/" + name, &status) == 0 else {
                throw FerryError(.storage, "cannot read the size of \(folder)/\(name) (errno \(errno))")
            }
            files[name] = Int64(status.st_size)
        }
        return files
    }
}
