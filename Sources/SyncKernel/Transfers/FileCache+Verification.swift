import Foundation

/// What a download that fails verification says, and whether going again can help.
///
/// An answer cut short or replaced on the way (a proxy's error page, a connection closed
/// early behind a `200`) arrives as a success with the wrong bytes. Its size gives it
/// away, or, of the right size, its checksum. Either may also be the remote's own file
/// that does not match its listing, but one answer cannot tell which; so:
///
/// - a wrong size is `remote_unavailable` (transient): the download goes again after a
///   backoff, and `retry.max_attempts` ends a file whose size never matches;
/// - a wrong checksum is transient the first time, and a `file` error (a dead letter at
///   once) when the next download of the key brings the very same wrong content: the
///   remote serves that file, and fetching it again will not change it.
extension FileCache {
    /// The error for a download of `key` that has `size` bytes where `expected` were due.
    static func wrongSize(key: String, size: Int64, expected: Int64) -> FerryError {
        FerryError(
            .remoteUnavailable,
            "the download of \(key) has \(size) bytes where \(expected) were expected (an answer cut short or replaced on the way); the file was discarded and the download goes again"
        )
    }

    /// The error for a download of `key` whose SHA-256 is `digest`, not the expected one;
    /// remembers `digest` until a download of `key` passes.
    func checksumMismatch(key: String, digest: String) -> FerryError {
        let again = mismatches[key] == digest
        mismatches[key] = digest
        if again {
            return FerryError(
                .file,
                "the download of \(key) does not match its SHA-256 checksum, twice with the same content: the remote's file is not the one it lists; the file was discarded"
            )
        }
        return FerryError(
            .remoteUnavailable,
            "the download of \(key) does not match its SHA-256 checksum (it may have been garbled on the way); the file was discarded and the download goes again"
        )
    }
}
