import FerrySimulation
import SyncKernelTesting
import Testing

/// Short traces of the faults and invariants that show the simulator's teeth
/// (`.ci/sim-teeth`): each passes as the code is, and fails with the defect of its patch.
@Suite struct FaultTraceTests {
    /// signed-out with `01-held-queue-never-resumes`: the server refused a valid token and the
    /// one its refresh gave; the held queue resumes once the device has another token.
    @Test func aQueueHeldWhileTheSessionStandsResumesByItself() async {
        let verdict = await FoundTraceTests.run(["act 0 notes put a 1", "fault 0 refuse-token", "sync 0"], seed: 1)
        #expect(verdict.violations == [])
        #expect(verdict.seconds >= 3600, "the hold ended only once the token was renewed")
    }

    /// A person signed in while a refusal was still to come: when it ends the new session,
    /// the person signs in again (the harness's defect, found on seed 344).
    @Test func aRefusalAfterASignInEndsNoSessionForGood() async {
        let verdict = await FoundTraceTests.run(["fault 2 refuse-token", "sign-in 2", "sync 2"], seed: 344)
        #expect(verdict.violations == [])
    }

    /// slow-resend with `02-unanswered-waits-30s`: a request whose answer was lost goes again
    /// as soon as the server answers.
    @Test func aRequestWithoutAnAnswerGoesAgainAtOnce() async {
        let verdict = await FoundTraceTests.run(["act 0 notes put a 1", "fault 0 lose-answer", "sync 0"], seed: 1)
        #expect(verdict.violations == [])
    }

    /// diverged with `03-junk-answer-replaces-document`: a 200 whose body is junk leaves the
    /// local document as it was.
    @Test func aJunkAnswerLeavesTheLocalDocument() async {
        let verdict = await FoundTraceTests.run(["act 0 notes put a 1", "fault 0 junk-answer", "sync 0"], seed: 1)
        #expect(verdict.violations == [])
    }

    /// torn-write with `05-batch-records-apart-from-effects`: the server dies inside a batch,
    /// after its effects and before their records, and keeps nothing of it.
    @Test func aServerThatDiesInsideABatchKeepsNothingOfIt() async {
        let verdict = await FoundTraceTests.run(
            ["act 0 notes put a 1", "act 0 notes put b 2", "fault 0 server-dies", "sync 0"],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("the server died") })
    }

    /// other-account with `06-another-account-sends-queued-writes`: writes queued under one
    /// account wait while another is signed in on the device, and go once it signs in again.
    @Test func writesQueuedUnderOneAccountWaitWhileAnotherIsSignedIn() async {
        let verdict = await FoundTraceTests.run(
            [
                "network 0 offline", "act 0 notes put a 1", "network 0 online", "sign-in 0 sam", "sync 0",
                "act 0 notes put b 2",
            ],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(
            verdict.trace.contains {
                $0.contains("act 0 notes put b 2  -> not done: another account is signed in here")
            }
        )
        #expect(verdict.trace.contains { $0.contains("a person signs in as the workloads' account again") })
    }

    /// other-account-shown with `07-another-account-sees-local-data`: a device where another
    /// account signs in shows none of the first account's documents.
    @Test func anotherAccountSignedInSeesNoneOfTheFirstAccountsDocuments() async {
        let verdict = await FoundTraceTests.run(["act 0 notes put a 1", "sync 0", "sign-in 0 sam", "sync 0"], seed: 1)
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.hasPrefix("sign-in 0 sam") })
    }

    /// The harness, seed 54 of `--workloads notes`: on the configured device, a note written
    /// before its first sign-in is shown to `sam`, who signs in there first and holds it (it
    /// is not sam's), and once the demo user signs in it goes as the demo user's.
    @Test func aNoteWrittenBeforeAnySignInIsShownToWhoeverSignsInAndGoesAsTheDemoUsers() async {
        let verdict = await FoundTraceTests.run(
            ["act 0 notes delete b 0", "act 2 notes put a 880", "sign-in 2 sam"],
            seed: 54,
            only: ["notes"]
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.hasPrefix("sign-in 2 sam") })
    }

    /// last-write-wins with `08-whole-second-timestamps`: of two writes of one note 0.4 s apart
    /// and in one second, the later (the server's) stays, though the server's time is whole
    /// seconds no longer.
    @Test func ofTwoWritesInOneSecondTheLaterStays() async {
        let verdict = await FoundTraceTests.run(
            [
                "act 0 notes put a 1", "sync 0", "sync 1", "act 0 notes put a 2", "wait 0.4", "act 1 notes put a 3",
                "sync 1", "sync 0",
            ],
            seed: 1
        )
        #expect(verdict.violations == [])
    }

    /// last-write-wins with `09-folded-write-keeps-first-time`: a write folded into one still
    /// queued is as new as itself, and stays over the server's state written between the two.
    @Test func aWriteFoldedIntoAQueuedOneIsAsNewAsItself() async {
        let verdict = await FoundTraceTests.run(
            [
                "act 0 notes put a 1", "sync 0", "sync 1", "act 0 notes put a 2", "wait 5", "act 1 notes put a 3",
                "sync 1", "wait 5", "act 0 notes put a 4", "sync 0",
            ],
            seed: 1
        )
        #expect(verdict.violations == [])
    }

    /// damaged-store with `19-empty-store-taken-for-new`: a store left an empty file is
    /// refused, naming it; once a person puts back the copy, the write queued before goes.
    @Test func aStoreLeftEmptyIsRefusedAndItsCopyPutBackSendsWhatWasQueued() async {
        let verdict = await FoundTraceTests.run(
            ["network 0 offline", "act 0 notes put a 1", "damage-store 0 empty", "network 0 online", "sync 0"],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("damage-store 0 empty  -> refused the damaged store") })
    }

    /// damaged-store with `20-unreadable-id-replaced`: a store where a queued operation's id
    /// was made unreadable is refused, naming the operation, never read with a new key;
    /// once a person puts back the copy, the write goes under its own.
    @Test func anOperationWhoseIdWasMadeUnreadableIsRefusedNotSentUnderANewKey() async {
        let verdict = await FoundTraceTests.run(
            [
                "network 0 offline", "act 0 notes put a 1", "damage-store 0 unreadable-id", "network 0 online",
                "sync 0",
            ],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("damage-store 0 unreadable-id  -> refused the damaged store") })
    }

    /// signed-in-twice with `21-sign-in-per-send`: the device set up by its configuration
    /// (seed 68's device 2) sends its first batch, two writes and no session yet; the two
    /// sends' automatic sign-ins, asked for together, share one.
    @Test func sendsThatEachNeedASignInShareOne() async {
        let verdict = await FoundTraceTests.run(["act 2 notes put a 259", "act 2 notes put d 888", "sync 2"], seed: 68)
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("device 2 set up by its configuration") })
    }

    /// exposed with `10-store-open-to-other-users`: a device's data folder and its files,
    /// the store's included, are readable by their owner only, through a crash too.
    @Test func aDevicesFilesAreItsOwnersOnly() async {
        let verdict = await FoundTraceTests.run(["act 0 notes put a 1", "crash 0", "sync 0"], seed: 1)
        #expect(verdict.violations == [])
    }

    /// busy-loop with `11-offline-loop-spins`: device 1 runs the runner's loop; offline, with
    /// a write that cannot go, its turn asks to wake later, not at once.
    @Test func anOfflineLoopWithAWriteWaitingWakesLater() async {
        let verdict = await FoundTraceTests.run(
            ["network 1 offline", "act 1 notes put a 1", "sync 1", "sync 1"],
            seed: 1
        )
        #expect(verdict.violations == [])
    }

    /// metered-download with `12-probe-result-outlives-its-link`: device 1's loop finds its
    /// link through the probe; once the link turns cellular, no track is fetched on it.
    @Test func aLinkThatTurnsCellularStopsDownloadsAtOnce() async {
        let verdict = await FoundTraceTests.run(
            ["network 1 metered", "act 1 audio keep collection col_demo_new", "sync 1"],
            seed: 20
        )
        #expect(verdict.violations == [])
    }

    /// not-drained with `13-lease-reclaimed-only-at-start`: device 1 died in a request and
    /// its loop started again before the request's lease ran out; the loop puts the
    /// operation back in line once the lease has run out, without starting again.
    @Test func aLeaseThatRunsOutWhileTheLoopRunsIsTakenBack() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 notes put a 1", "fault 1 crash-after-apply", "sync 1", "sync 1"],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("died in a request; started again") })
    }

    /// past-max-answer with `23-no-cap-on-answers`: the first feed page device 0's pass asks
    /// for (recipes') arrives past its `sync.max_answer`; the device reads none of it, pulls
    /// the page again later, and shows the note device 1 wrote.
    @Test func aFeedPagePastTheCapIsNotReadAndIsPulledAgain() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 notes put a 1", "sync 1", "fault 0 oversize-answer", "sync 0"],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains("sync 0  -> an answer past the device's sync.max_answer was not read"))
    }

    /// A second process on device 0 (`ferry run --once` while the app runs) sends the note
    /// the app queued; the app's own pass after it finds nothing left to send, and the
    /// server applied the note once.
    @Test func aSecondProcessOnTheStoreSendsWhatTheAppQueued() async {
        let verdict = await FoundTraceTests.run(["act 0 notes put a 1", "beside 0", "sync 0"], seed: 1)
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains("beside 0"), "the second process finished its pass")
    }

    /// not-drained with `13-lease-reclaimed-only-at-start`, as a second runner leaves it: a
    /// process beside device 1's loop died in its write after the server applied it (its
    /// probe answered first, a 500 that proves the server there); the loop, which started
    /// long before, takes the write's lease back once it has run out.
    @Test func aLeaseLeftByASecondProcessIsTakenBackByTheLoop() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 notes put a 1", "fault 1 500", "fault 1 crash-after-apply", "beside 1", "sync 1"],
            seed: 1
        )
        #expect(verdict.violations == [])
        #expect(verdict.trace.contains { $0.contains("the second process died in a request") })
    }

    /// stale-offline with `14-probe-waits-its-interval`: the server was down for 2 s while
    /// device 1's loop had a write waiting; its turn 4 s after the outage ended probed
    /// again and sent the write, where the probe's last result would have held for 15 s.
    @Test func aShortOutageEndsForTheQueueSoonAfterItEndsForTheRemote() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 notes put a 1", "server-down 2", "sync 1", "sync 1", "wait 6", "sync 1"],
            seed: 1
        )
        #expect(verdict.violations == [])
    }

    /// diverged without the `seen` change numbers (docs/protocol.md §6): device 1 wrote a
    /// note, the server was restored from a backup without it, and device 1, whose cursor
    /// was from before the backup, pulls the feed again and no longer shows it.
    @Test func aWriteTheRestoredServerForgotIsForgottenOnTheDeviceToo() async {
        let verdict = await FoundTraceTests.run(
            ["act 1 notes put c 126", "sync 1", "restore-server"],
            seed: 85,
            only: ["recipes", "notes"],
            restores: true
        )
        #expect(verdict.violations == [])
    }

    /// signed-in-twice, wrongly: the configured device's refresh was refused (401: its
    /// session had been ended) with a body cut short. The device saw the 401 and signed in
    /// again, as it must; the check took the session for standing, as it noted only answers
    /// read whole (found by seed 635 of `--workloads family`).
    @Test func aRefreshRefusedWithABodyCutShortLetsTheDeviceSignInAgain() async {
        let verdict = await FoundTraceTests.run(
            ["revoke 2", "wait 10116", "fault 2 truncate-answer", "sync 2"],
            seed: 635,
            only: ["family"]
        )
        #expect(verdict.violations == [])
    }

    /// The configured device's first sign-in lost its answer as a person opened a recipe it
    /// had not cached: the read went without a token, met a 401, and told the person to run
    /// `ferry auth login`, though nothing was wrong with the session but a lost answer. It
    /// says the server could not be reached now.
    @Test func aLostAnswerToTheConfiguredSignInIsNoAnswerForTheRead() async {
        let verdict = await FoundTraceTests.run(["fault 2 lose-answer", "act 2 recipes save demo-dal"], seed: 5, only: ["recipes"])
        #expect(verdict.violations == [])
        let act = verdict.trace.first { $0.hasPrefix("act 2") } ?? ""
        #expect(act.contains("could not be reached") && !act.contains("auth login"), "\(act)")
    }

    /// lost-write, wrongly: another account's sign-in emptied device 0's view, and the
    /// person added again a film the device had sent already, with another recommender. By
    /// the documented rule (docs/plugins/movies.md) the add met the server's entry (409)
    /// and adopted it, and the pending movie's changes went to that entry; the check took
    /// the second add for the device's last word (found by seed 2324).
    @Test func anAddOfAFilmTheServerHoldsFromThisDeviceAdoptsItsEntry() async {
        let lines = ["act 0 movies add aliens Kim", "beside 0", "sign-in 0 sam", "sign-in 0"]
        let verdict = await FoundTraceTests.run(lines + ["act 0 movies add aliens Sam"], seed: 2324, only: ["movies"])
        #expect(verdict.violations == [])
        // A change made to the pending movie goes to the adopted entry, field by field.
        let rated = await FoundTraceTests.run(
            lines + ["act 0 movies add aliens Sam", "act 0 movies update aliens rating 6"],
            seed: 2324,
            only: ["movies"]
        )
        #expect(rated.violations == [])
        // The adopted entry keeps what the device wrote to it before: its rating of 3, not
        // the pending movie's none.
        let earlier = await FoundTraceTests.run(
            ["act 0 movies add aliens Kim", "act 0 movies update aliens rating 3", "beside 0", "sign-in 0 sam", "sign-in 0"]
                + ["act 0 movies add aliens Sam"],
            seed: 2324,
            only: ["movies"]
        )
        #expect(earlier.violations == [])
    }

    /// other-account-shown: the device set up by its configuration signed in by itself
    /// inside a command (a recipe read online), between passes, so no account was recorded
    /// as the local data's; a note written then was the configured account's, and a person
    /// who signed in as sam next was shown it, as if written while nobody was signed in
    /// (found by seed 3274). The first local write under an account records it.
    @Test func aNoteWrittenAfterAnAutomaticSignInInsideACommandIsNotShownToAnotherAccount() async {
        let verdict = await FoundTraceTests.run(
            ["act 2 recipes save demo-dal", "act 2 notes put b 998", "sign-in 2 sam"],
            seed: 3274
        )
        #expect(verdict.violations == [])
    }

    /// needs-person: device 0 closed a round it had started offline, while the start of
    /// another round it had started went out beside the close: the close's send saw that
    /// start still unsent and waited for it, but it had been delivered (the server named the
    /// round) before the wait was recorded, and the close ended a dead letter saying the
    /// round was discarded (found by seed 5370, once a device sent eight at once). It goes
    /// again at once now.
    @Test func aWriteThatWaitsForARoundDeliveredBesideItGoesOnceItIsThere() async {
        let verdict = await FoundTraceTests.run(
            [
                "act 1 family pick 603", "sync 1", "act 0 family start night-31", "act 0 recipes toggle demo-dal",
                "act 0 family vote 949 up kid", "network 0 offline", "act 0 family start night-11", "act 0 family close",
                "act 0 recipes unsave demo-shakshuka",
            ],
            seed: 5370
        )
        #expect(verdict.violations == [])
    }

    /// The harness: not-drained on a pick queued behind a close of the same round, a round
    /// the restored server forgot. The close ended dead (`404 round_not_found`), which only
    /// a person can take further, as the family workload says; a dead letter blocks its
    /// entity, and the pick behind it waits for that person too (`ferry status`: "blocked
    /// behind operation …"), but the settle counted it as work left undone (found by seed
    /// 1648 with `--restores`, on the code before this stop's too).
    @Test func aPickBehindADeadCloseOfAForgottenRoundWaitsForThePersonToo() async {
        let verdict = await FoundTraceTests.run(
            [
                "act 0 family pick 438631", "sync 0", "act 0 family start night-28", "sync 0", "network 0 offline",
                "restore-server", "act 0 family close", "act 0 family pick 129",
            ],
            seed: 1648,
            restores: true
        )
        #expect(verdict.violations == [])
    }
}
