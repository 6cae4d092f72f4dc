import Foundation
import SyncKernel
import SyncKernelCLI

/// Renders family data for people; the commands print what it returns.
enum FamilyPrinter {
    /// Says on standard error that a read came from the cache, why, and how old it is.
    static func cacheNote<T>(_ fetched: Fetched<T>, now: Date) {
        guard fetched.fromCache else { return }
        let age = fetched.fetchedAt.map { ", fetched \(Output.relative($0, now: now))" } ?? ""
        Output.warn("(\(fetched.note ?? "cached copy")\(age))")
    }

    static func group(_ detail: FamilyGroupDetail) -> String {
        var text = "\(Output.bold(detail.group.name)) (\(detail.group.id))\n"
        let rows = detail.members.map { member in
            [
                member.id, member.displayName, member.role,
                member.managed ? "managed by \(member.managerUserID ?? "?")" : (member.userID ?? "-"),
            ]
        }
        text += "\n" + Output.render(["MEMBER", "NAME", "ROLE", "ACCOUNT"], rows)
        if let active = detail.activeRound {
            text += "\nActive round: \(active.round.label), \(active.suggestions.count) suggestion(s)."
            text += " Show it with `ferry family round show \(active.round.id)`.\n"
        } else {
            text += "\nNo active round; start one with `ferry family round start \(detail.group.id)`.\n"
        }
        return text
    }

    static func round(_ view: FamilyRoundView, members: [FamilyMember]) -> String {
        let detail = view.detail
        func name(_ id: String) -> String { members.first { $0.id == id }?.displayName ?? id }
        var text =
            "\(Output.bold("Round \(detail.round.label)")) in group \(detail.round.groupID): \(detail.round.status)\n"
        if !view.attendees.isEmpty {
            text += "Attendees: \(view.attendees.map(name).joined(separator: ", "))\n"
        } else if detail.round.status == "pending" {
            text += "Attendees: every member of the group (set when the round reaches the remote)\n"
        }
        var ids = detail.suggestions.map(\.tmdbID)
        for tally in detail.tallies ?? [] where !ids.contains(tally.tmdbID) { ids.append(tally.tmdbID) }
        if ids.isEmpty {
            text += "\nNo suggestions yet; add one with `ferry family suggest \(detail.round.id) TMDB_ID`.\n"
        } else {
            let rows = ids.map { id -> [String] in
                let suggestion = detail.suggestions.first { $0.tmdbID == id }
                let title = suggestion.map { s in s.year.map { "\(s.title) (\($0))" } ?? s.title } ?? "-"
                let tally = detail.tallies?.first { $0.tmdbID == id }
                let votes = tally.map { "+\($0.up) -\($0.down)" } ?? (detail.tallies == nil ? "offline" : "+0 -0")
                let score = tally.map { "\($0.score)" } ?? (detail.tallies == nil ? "?" : "0")
                let by = suggestion?.suggestedByMemberID.map(name) ?? "-"
                return ["\(id)", title, votes, score, by]
            }
            text += "\n" + Output.render(["TMDB", "TITLE", "VOTES", "SCORE", "SUGGESTED BY"], rows)
        }
        if detail.tallies == nil {
            text += "Vote tallies are fetched fresh and need a connection.\n"
        }
        for vote in view.localVotes {
            let who = vote.memberKey == FamilyClient.selfKey ? "you" : name(vote.memberKey)
            text +=
                "Your device: \(who) voted \(vote.value.rawValue) on \(vote.tmdbID) (\(vote.state)\(vote.note.map { ": \($0)" } ?? ""))\n"
        }
        if let pick = detail.pick {
            if view.pickState == "pending" {
                text += "\nPick queued here: \(pick.label) (not yet accepted; the first pick wins).\n"
            } else {
                text += "\nPicked: \(pick.label)\(pick.pickedByMemberID.map { " by \(name($0))" } ?? "").\n"
                if let lost = view.lostPick {
                    text += "Your pick of movie \(lost) lost: the round had already been picked.\n"
                }
            }
        } else if detail.round.status == "voting" {
            text += "\nNo pick yet; the group's creator picks with `ferry family pick \(detail.round.id) TMDB_ID`.\n"
        }
        return text
    }

    /// `ferry family pick --json`.
    struct PickView: Encodable {
        var outcome: String
        var pick: FamilyPick?
        var yours: Int?
        var message: String

        init(_ result: PickResult) {
            message = result.message
            switch result {
            case .picked(let pick): (outcome, self.pick, yours) = ("picked", pick, pick.tmdbID)
            case .queued(_, let tmdbID): (outcome, pick, yours) = ("queued", nil, tmdbID)
            case .alreadyPicked(let winner, let mine): (outcome, pick, yours) = ("already_picked", winner, mine)
            }
        }
    }
}
