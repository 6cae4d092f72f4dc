import Foundation
import SyncKernel

extension FamilyClient {
    /// The group a command works on: the one named, else `default_group` from
    /// `config.yaml`, else the user's only group.
    func resolveGroup(_ given: String?) async throws -> String {
        if let given = given?.trimmingCharacters(in: .whitespaces).nilIfEmpty {
            return try await resolved(given, "group")
        }
        if let configured = try settings.defaultGroup { return configured }
        let groups = try await self.groups().value
        guard groups.count == 1, let only = groups.first else {
            let list = groups.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
            throw FerryError(
                .usage,
                groups.isEmpty
                    ? "you are in no family group; create one with `ferry family group create NAME`"
                    : "name the group (--group ID) or set plugins.family.default_group in config.yaml; your groups: \(list)"
            )
        }
        return only.id
    }

    /// Member ids for the names or ids given to `--attendees`, checked against the group.
    func resolveAttendees(_ references: [String], group: String) async throws -> [String] {
        let references = references.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        guard !references.isEmpty else { return [] }
        let detail = try await self.group(group).value
        var ids: [String] = []
        var unknown: [String] = []
        for reference in references {
            if let member = detail.member(named: reference) {
                if !ids.contains(member.id) { ids.append(member.id) }
            } else {
                unknown.append(reference)
            }
        }
        guard unknown.isEmpty else {
            let members = detail.members.map { "\($0.displayName) (\($0.id))" }.joined(separator: ", ")
            throw FerryError(
                .usage,
                "--attendees: \(unknown.joined(separator: ", ")) \(unknown.count == 1 ? "is" : "are") not in group \(group); its members: \(members)"
            )
        }
        return ids
    }

    /// A checked id; a local id (`local-…`) whose entity the remote has named since becomes the remote's id.
    func resolved(_ id: String, _ what: String) async throws -> String {
        try Self.validate(id, what)
        guard id.hasPrefix(Self.localPrefix) else { return id }
        let remote = try await runtime.store.read { db in
            try IDMappings.remoteID(plugin: FamilyPlugin.name, localID: id, in: db)
        }
        return remote ?? id
    }
}
