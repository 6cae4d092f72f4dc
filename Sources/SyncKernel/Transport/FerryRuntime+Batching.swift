extension FerryRuntime {
    /// How the operations of one delivery that travel in a batch run (`Options.batching`).
    public enum Batching: Sendable {
        /// All at once: their third-party requests and store reads overlap. The batch
        /// leaves when each has a request in it or has ended, or `linger` (real time) after
        /// the first request came, so that one busy elsewhere (a slow third party) holds
        /// the others back no longer than that.
        case atOnce(linger: Duration)
        /// One at a time, in queue order, each until its request waits in the batch or it
        /// has ended; the batch leaves when each has. Slower when they reach third parties
        /// (one TMDB lookup after another), and the same every time: for a simulation.
        case inTurn
    }
}
