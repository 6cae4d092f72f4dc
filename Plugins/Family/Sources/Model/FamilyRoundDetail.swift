import Foundation

/// A round with its suggestions, the pick, and (fresh from the remote only) votes and tallies.
public struct FamilyRoundDetail: Codable, Sendable, Equatable {
    /// The round's own fields.
    public var round: FamilyRound
    /// The movies suggested for the round.
    public var suggestions: [FamilySuggestion]
    /// Every vote of the round; nil when read from the cache (votes are never cached).
    public var votes: [FamilyVote]?
    /// Votes per movie; nil when read from the cache (tallies are always fetched fresh).
    public var tallies: [FamilyTally]?
    /// The round's pick, if made.
    public var pick: FamilyPick?

    /// A round detail from its parts.
    public init(
        round: FamilyRound,
        suggestions: [FamilySuggestion],
        votes: [FamilyVote]?,
        tallies: [FamilyTally]?,
        pick: FamilyPick?
    ) {
        self.round = round
        self.suggestions = suggestions
        self.votes = votes
        self.tallies = tallies
        self.pick = pick
    }

    enum CodingKeys: String, CodingKey {
        case suggestions, votes, tallies, pick
    }

    /// Decodes the remote's flat round object with its added keys.
    public init(from decoder: any Decoder) throws {
        round = try FamilyRound(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        suggestions = try container.decodeIfPresent([FamilySuggestion].self, forKey: .suggestions) ?? []
        votes = try container.decodeIfPresent([FamilyVote].self, forKey: .votes)
        tallies = try container.decodeIfPresent([FamilyTally].self, forKey: .tallies)
        pick = try container.decodeIfPresent(FamilyPick.self, forKey: .pick)
    }

    /// Encodes the same flat shape the remote sends.
    public func encode(to encoder: any Encoder) throws {
        try round.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(suggestions, forKey: .suggestions)
        try container.encode(votes, forKey: .votes)
        try container.encode(tallies, forKey: .tallies)
        try container.encode(pick, forKey: .pick)
    }

    /// The title of `tmdbID` as the round knows it (suggestion or pick).
    public func title(of tmdbID: Int) -> String? {
        suggestions.first { $0.tmdbID == tmdbID }?.title ?? (pick?.tmdbID == tmdbID ? pick?.title : nil)
    }
}
