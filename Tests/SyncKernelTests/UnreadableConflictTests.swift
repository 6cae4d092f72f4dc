import Foundation
import SyncKernel
import Testing

/// A 409 or 412 whose body is not JSON was cut short or replaced on the way: it says
/// nothing of the remote's state, so it goes again instead of being decided as a conflict.
@Suite("Failures: a conflict whose answer cannot be read")
struct UnreadableConflictTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aConflictAnsweredWithJunkGoesAgain() {
        for status in [409, 412] {
            let junk = RemoteFailure(status: status, body: Data("<html>502 Bad Gateway</html>".utf8))
            guard case .transient(let reason, nil) = FailureClass.classify(junk, now: now) else {
                Issue.record("a \(status) with a proxy's page goes again")
                continue
            }
            #expect(reason.contains("could not be read"))
        }
    }

    @Test func aConflictInTheRemotesWordsOrWithoutABodyIsStillAConflict() {
        let shaped = RemoteFailure(
            status: 409,
            body: Data(
                #"{"error":{"code":"round_already_active","message":"close it first","details":{"current":{"id":"r_1"}}}}"#
                    .utf8
            )
        )
        guard case .conflict(409, _, let remote?) = FailureClass.classify(shaped, now: now) else {
            Issue.record("a 409 in Ferry's error shape is a conflict with the remote's entity")
            return
        }
        #expect(String(decoding: remote, as: UTF8.self) == #"{"id":"r_1"}"#)
        guard case .conflict(412, _, nil) = FailureClass.classify(RemoteFailure(status: 412), now: now) else {
            Issue.record("a 412 without a body is a conflict")
            return
        }
    }
}
