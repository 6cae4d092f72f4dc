import Foundation
import GRDB
import SyncKernel

/// Puts, patches and deletes of a few documents of a domain declared in YAML (last write
/// wins), from every device: the workload a new domain gets with no code of its own.
///
/// Checks: every device holds the server's documents; a document only one device wrote
/// ends on the server as that device showed it after its last acknowledged write; a
/// device never shows as a document what is not one (`garbled`: not a JSON object, or
/// another entity), nor, while another account is signed in there, any of the documents of
/// the account the workload writes as (`other-account-shown`).
public final class DeclaredDomainWorkload: SimulationWorkload, @unchecked Sendable {
    public let name: String
    let domain: String
    static let keys = ["a", "b", "c", "d"]
    /// What each device showed of a document after its last acknowledged write (nil: deleted).
    private var lastWrite: [String: [Int: [String: String]?]] = [:]
    /// Documents written before a restore of the server: whichever write is on it now, the
    /// restore's or a later one, none is lost.
    private var restoredAway: Set<String> = []
    /// The account the workload writes as: the one signed in where it first wrote.
    private var writer: String?
    /// By device, the life, store stamp and signed-in account with which it last showed
    /// nothing amiss.
    private var shownFine: [Int: (life: Int, stamp: Int64, account: String?)] = [:]

    /// A workload on the declared domain `domain`.
    public init(domain: String) {
        self.name = domain
        self.domain = domain
    }

    public func draw(device: Int, using random: inout SeededRandom) -> String {
        let key = Self.keys.randomElement(using: &random)!
        let value = Int.random(in: 0..<1000, using: &random)
        return random.weighted([("put \(key) \(value)", 5), ("patch \(key) \(value)", 3), ("delete \(key) 0", 2)])
    }

    public func perform(_ action: String, on device: SimulatedDevice, in world: SimulationWorld) async throws {
        let words = action.split(separator: " ").map(String.init)
        guard words.count == 3 else { throw FerryError(.usage, "unknown \(domain) action \(action)") }
        let (kind, key, value) = (words[0], words[1], words[2])
        let body =
            kind == "patch"
            ? #"{"note": "\#(value)"}"# : #"{"title": "\#(key) by \#(device.index)", "note": "\#(value)"}"#
        if writer == nil { writer = await device.runtime.credentials.account() }
        _ = try await device.runtime.submitDeclared(domain: domain, kind: kind, entity: key, body: Data(body.utf8))
        lastWrite[key, default: [:]][device.index] = try await documents(on: device)[key]
    }

    /// After a restore, the documents written before it are no longer followed: every
    /// device must still hold the server's documents.
    public var followsRestores: Bool { true }

    public func serverRestored() { restoredAway.formUnion(lastWrite.keys) }

    public func check(_ world: SimulationWorld) async throws -> [SimulationViolation] {
        let server = try await serverDocuments(world)
        var violations: [SimulationViolation] = []
        for device in world.devices {
            let local = try await documents(on: device)
            if local != server {
                violations.append(
                    SimulationViolation("diverged", "device \(device.index) holds \(domain) \(Self.show(local)), the server \(Self.show(server))")
                )
            }
        }
        for (key, writers) in lastWrite where writers.count == 1 && !restoredAway.contains(key) {
            let (device, shown) = writers.first!
            if server[key] != shown {
                violations.append(
                    SimulationViolation("lost-write", "device \(device) last left \(domain) \(key) as \(shown.map { "\($0)" } ?? "deleted") and no other device wrote it, but the server has \(server[key].map { "\($0)" } ?? "nothing")")
                )
            }
        }
        return violations
    }

    /// Checked before every request: what a device shows changes only with its store and
    /// who is signed in, so a device unchanged since a check that found nothing amiss is
    /// not read again.
    ///
    /// Only the workload's account writes the domain: a device where another account is
    /// signed in shows none of its documents (`other-account-shown`), except those with a
    /// write made while nobody was signed in, which are shown to whoever is until someone
    /// keeps or discards that write (docs/plugins/auth.md).
    public func checkShown(on device: SimulatedDevice) async throws -> [SimulationViolation] {
        let account = await device.runtime.credentials.account()
        let now = (life: device.life, stamp: try device.runtime.store.stamp(), account: account)
        if let fine = shownFine[device.index], fine == now { return [] }
        let (rows, signedOut) = try await device.runtime.store.read { [domain] db in
            (
                try DeclaredEntities.list(domain: domain, in: db).map { ($0.entity, $0.body) },
                Set(try Outbox.operations(plugin: domain, in: db).filter { $0.account == nil }.map(\.entity))
            )
        }
        var violations = rows.compactMap { entity, body -> SimulationViolation? in
            let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            if let object, object["id"].map({ $0 as? String == entity }) ?? true { return nil }
            return SimulationViolation("garbled", "device \(device.index) shows \(domain) \(entity) as \(body.prefix(60)), not a document")
        }
        let writersOwn = rows.map(\.0).filter { !signedOut.contains($0) }
        if let writer, let account, account != writer, !writersOwn.isEmpty {
            violations.append(
                SimulationViolation(
                    "other-account-shown",
                    "device \(device.index), signed in as \(account), shows \(domain) \(writersOwn.joined(separator: ", ")) of \(writer)"
                )
            )
        }
        shownFine[device.index] = violations.isEmpty ? now : nil
        return violations
    }

    /// The fields of each local document, without the server's bookkeeping.
    private func documents(on device: SimulatedDevice) async throws -> [String: [String: String]] {
        let rows = try await device.runtime.store.read { [domain] db in try DeclaredEntities.list(domain: domain, in: db) }
        var documents: [String: [String: String]] = [:]
        for row in rows { documents[row.entity] = Self.fields(Data(row.body.utf8)) }
        return documents
    }

    /// The server's documents of the signed-in user, read through the changes feed.
    private func serverDocuments(_ world: SimulationWorld) async throws -> [String: [String: String]] {
        var documents: [String: [String: String]] = [:]
        var cursor = "0"
        while true {
            let answer = try await world.ask("GET", "/v1/domains/\(domain)/changes?since=\(cursor)", as: world.devices[0])
            guard answer.status == 200, let page = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
                let changes = page["changes"] as? [[String: Any]], let next = page["cursor"] as? String
            else { throw FerryError(.rejected, "the \(domain) feed answered \(answer.status)") }
            for change in changes {
                guard let id = change["id"] as? String else { continue }
                if change["type"] as? String == "delete" {
                    documents[id] = nil
                } else if let entity = change["entity"] {
                    documents[id] = Self.fields(try SortedJSON.data(entity))
                }
            }
            cursor = next
            if page["has_more"] as? Bool != true { return documents }
        }
    }

    /// A document's own fields as text, without `id`, `version` and timestamps.
    static func fields(_ body: Data) -> [String: String] {
        let object = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
        var fields: [String: String] = [:]
        for (name, value) in object where !["id", "version", "created_at", "updated_at"].contains(name) {
            fields[name] = "\(value)"
        }
        return fields
    }

    private static func show(_ documents: [String: [String: String]]) -> String {
        documents.keys.sorted().map { "\($0)=\(documents[$0]!.sorted { $0.key < $1.key })" }.joined(separator: " ")
    }
}
