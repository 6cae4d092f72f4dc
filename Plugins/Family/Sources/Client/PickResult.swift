/// What became of `ferry family pick`.
public enum PickResult: Sendable, Equatable {
    /// This pick is the round's pick.
    case picked(FamilyPick)
    /// Queued for the runner (the pick is configured `delivery: queued`).
    case queued(roundID: String, tmdbID: Int)
    /// Someone picked first; `winner` is the round's pick, adopted locally, and `yours`
    /// is the movie this pick asked for.
    case alreadyPicked(winner: FamilyPick, yours: Int)

    /// One line for people.
    public var message: String {
        switch self {
        case .picked(let pick):
            "Picked \(pick.label) for round \(pick.roundID)."
        case .queued(let round, let tmdbID):
            "Pick of movie \(tmdbID) for round \(round) is queued; `ferry run` sends it (first pick wins)."
        case .alreadyPicked(let winner, let yours) where winner.tmdbID == yours:
            "Round \(winner.roundID) was already picked, with the same movie: \(winner.label). Nothing else to do."
        case .alreadyPicked(let winner, let yours):
            "Conflict: round \(winner.roundID) was already picked: \(winner.label) won. Your pick of movie \(yours) was not recorded; the local round now shows the remote's pick."
        }
    }
}
