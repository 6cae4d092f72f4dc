import FerrySimulation
import SyncKernelTesting
import Testing

/// The shortest traces of the defects the simulator found, each replayed as it was found:
/// every one failed before its fix (the invariant it broke is named) and must pass now.
@Suite struct FoundTraceTests {
    static func run(
        _ lines: [String],
        seed: UInt64,
        only: [String]? = nil,
        restores: Bool = false
    ) async -> SimulationVerdict {
        let events = lines.compactMap(SimulationEvent.init(line:))
        #expect(events.count == lines.count)
        let simulation = ShippedSimulation.simulation(.init(seed: seed, steps: events.count, restores: restores), only: only)
        return await simulation.run(events)
    }

    /// lost-write: on the configured device, which has never pulled, an explicit unsave of
    /// a recipe the server has saved queued nothing, and the first pull brought the recipe
    /// back as saved.
    @Test func anExplicitUnsaveOnADeviceThatNeverPulledIsKept() async {
        let verdict = await Self.run(["act 2 recipes unsave demo-dal"], seed: 5941)
        #expect(verdict.violations == [])
    }

    /// signed-out: the answer to a token refresh was lost (the device died after the server
    /// rotated the pair); presenting the old refresh token again revoked the session.
    @Test func aLostAnswerToARefreshSignsNobodyOut() async {
        let verdict = await Self.run(
            ["wait 11615", "fault 0 crash-after-apply", "sync 0", "act 0 notes put d 289"],
            seed: 1
        )
        #expect(verdict.violations == [])
    }

    /// needs-person: a write whose answer came back garbled (a proxy's page) was a dead letter.
    @Test func aGarbledAnswerToAWriteGoesAgain() async {
        let verdict = await Self.run(["act 1 notes put b 94", "fault 1 truncate-answer", "sync 1"], seed: 18)
        #expect(verdict.violations == [])
    }

    /// needs-person: a deletion that won a conflict left the entity's later patch queued, to
    /// be refused with 404 for good.
    @Test func aDeletionThatWinsEndsTheEntitysQueuedWrites() async {
        let verdict = await Self.run(
            [
                "act 0 notes put a 689", "sync 0", "act 1 notes delete a 0", "act 0 notes put a 461",
                "act 0 notes patch a 465", "sync 1",
            ],
            seed: 17
        )
        #expect(verdict.violations == [])
    }

    /// diverged: an answer replayed from an earlier attempt put back a document another
    /// device had deleted since, and the pulls had passed the deletion.
    @Test func aReplayedAnswerDoesNotBringBackWhatWasDeletedSince() async {
        let verdict = await Self.run(
            ["act 0 notes delete a 0", "fault 2 junk-answer", "act 2 notes put a 946", "sync 2"],
            seed: 4
        )
        #expect(verdict.violations == [])
    }

    /// diverged: a replayed answer to an unsave (the device died after the server ran it)
    /// left the device showing the recipe unsaved, though another device saved it since.
    @Test func aReplayedAnswerDoesNotHideAnotherDevicesLaterChange() async {
        let verdict = await Self.run(
            [
                "act 1 recipes unsave demo-dal", "sync 1", "act 2 recipes toggle demo-dal", "sync 0",
                "fault 2 crash-after-apply", "act 0 recipes save demo-dal", "sync 2",
            ],
            seed: 944
        )
        #expect(verdict.violations == [])
    }

    /// diverged: a conflict answered from the remote's record (412, the document deleted
    /// then) let the deletion win on a device, though another device had put it back since.
    @Test func aReplayedConflictDoesNotHideWhatWasPutBackSince() async {
        let verdict = await Self.run(
            [
                "act 0 notes delete d 0", "act 1 notes put d 598", "sync 1", "sync 2", "act 2 notes put d 140",
                "sync 0", "fault 2 crash-after-apply", "act 0 notes put d 694", "sync 2",
            ],
            seed: 944
        )
        #expect(verdict.violations == [])
    }

    /// needs-person: a patch of a document deleted on the server (the put before it answered
    /// from its record) was refused with 404 for good instead of meeting the deletion.
    @Test func aPatchOfADeletedDocumentMeetsTheDeletion() async {
        let verdict = await Self.run(
            [
                "act 1 notes put b 94", "fault 1 crash-after-apply", "act 2 notes delete b 0", "sync 1",
                "act 1 notes patch b 509",
            ],
            seed: 18
        )
        #expect(verdict.violations == [])
    }

    /// not-drained: a write made while the device's clock ran two hours ahead waited, once
    /// the clock was put right, until the clock came round again: it was due at its
    /// creation time rather than at once.
    @Test func aWriteMadeBeforeTheClockWasSetBackGoesAtOnce() async {
        let verdict = await Self.run(["skew 1 7023", "act 1 recipes unsave demo-shakshuka", "skew 1 -6110"], seed: 735)
        #expect(verdict.violations == [])
    }

    /// diverged: a save cancelled an unsent unsave after a pull had brought another device's
    /// unsave: nothing was sent, and the device showed the recipe saved, the server unsaved.
    @Test func aWriteIsNotCancelledAgainstAStateThePullReplaced() async {
        let verdict = await Self.run(
            [
                "act 2 recipes toggle demo-shakshuka", "sync 2", "act 1 recipes toggle demo-shakshuka",
                "skew 1 -6833", "sync 1", "act 1 recipes save demo-shakshuka",
            ],
            seed: 911
        )
        #expect(verdict.violations == [])
    }

    /// lost-write: a put queued behind the same device's patch was sent with the version both
    /// were made on; the remote answered 412 (its version was the patch's), and last write
    /// wins compared the put's creation with the patch's arrival: the put was lost.
    @Test func aDevicesLaterWriteIsMadeOnItsEarlierOnesAnswer() async {
        let verdict = await Self.run(
            [
                "act 0 notes put d 97", "sync 0", "act 0 notes patch d 174", "wait 30",
                "act 0 notes put d 494", "wait 60", "sync 0",
            ],
            seed: 404
        )
        #expect(verdict.violations == [])
    }

    /// needs-person: the disk filled up while an answer was recorded; SQLite rolled the whole
    /// transaction back, the next acknowledgement's savepoint committed by itself, and the
    /// final commit failed ("no transaction is active"): a storage error, not a full disk,
    /// so the writes became dead letters.
    @Test func aDiskThatFillsWhileAnswersAreRecordedLosesNothingAndStopsNothing() async {
        let verdict = await Self.run(
            [
                "act 1 notes put d 281", "sync 1", "act 1 notes delete d 0", "act 1 notes delete d 0",
                "act 1 recipes toggle demo-dal", "act 1 notes put a 752", "act 1 notes delete d 0",
                "act 1 notes put c 670", "act 1 notes patch a 100", "act 1 notes put b 588",
                "act 1 recipes save demo-pancakes", "act 1 notes patch c 973", "act 1 notes put a 267",
                "disk 1 full", "sync 1",
            ],
            seed: 375
        )
        #expect(verdict.violations == [])
    }
}

/// Found with the movies and family workloads (a 300-seed sweep: seeds 24, 70 and 77).
extension FoundTraceTests {
    /// lost-vote: a vote made offline on a round started offline, then, once the group's
    /// active round (started elsewhere) was known, a vote on that round. The second went
    /// first; the round started offline met the active round (409) and became it, and the
    /// first vote, now on the same round, replaced the second on the server.
    @Test func aVoteOnTheActiveRoundWaitsForTheRoundStartedOfflineThatMayBeIt() async {
        let verdict = await Self.run(
            [
                "act 1 family close", "sync 1", "act 0 family start night-42", "network 0 offline",
                "act 0 family vote 438631 down self", "act 2 family start night-88", "sync 2", "fault 0 429",
                "network 0 online", "sync 0", "act 0 family vote 438631 up self",
            ],
            seed: 186
        )
        #expect(verdict.violations == [])
    }

    /// lost-write: a put went out once (a 401; the server had ended the session), so a
    /// delete and a put made after it queued behind it. Its answer became the base of both;
    /// the delete's answer (204) carried no document, so the last put went with the first
    /// put's version, met the deletion as a 412 and lost to it.
    @Test func aPutMadeAfterADeleteCreatesTheDocumentAgain() async {
        let verdict = await Self.run(
            ["act 1 notes put b 299", "revoke 1", "sync 1", "act 1 notes delete b 0", "act 1 notes put b 635"],
            seed: 771
        )
        #expect(verdict.violations == [])
    }

    /// lost-write: the answer to a rating carried no version for the kernel, so the next
    /// rating went with the version from before the first and met its own device's write
    /// as a 412.
    @Test func aRatingMadeAfterAnotherGoesOnTheFirstOnesAnswer() async {
        let verdict = await Self.run(
            ["act 0 movies update arrival rating 2", "fault 0 refuse-token", "sync 0", "act 0 movies update arrival rating 7"],
            seed: 160
        )
        #expect(verdict.violations == [])
    }

    /// lost-write: a movie added by title reached the server while the device's disk was
    /// full, so its answer was not recorded; removed then, it was taken for one that never
    /// left and forgotten with its add, and the server kept it.
    @Test func aMovieWhoseAddWasSentIsRemovedFromTheServerToo() async {
        let verdict = await Self.run(
            ["disk 1 full", "act 1 movies add aliens Kim", "sync 1", "act 1 movies remove aliens"],
            seed: 225
        )
        #expect(verdict.violations == [])
    }

    /// lost-write: after the fix above, a movie whose add reached the server without a
    /// recorded answer was removed and added again: the second add went first, found the
    /// movie on the server (409) and adopted it, and the removal, following the first add,
    /// deleted it. An add now waits for the removals queued before it that may be of the
    /// same movie.
    @Test func aMovieRemovedAndAddedAgainAfterALostAnswerStaysListed() async {
        let verdict = await Self.run(
            [
                "fault 1 crash-after-apply", "act 1 movies add aliens Kim", "sync 1", "act 1 movies remove aliens",
                "act 1 movies add aliens Alex",
            ],
            seed: 261
        )
        #expect(verdict.violations == [])
    }

    /// lost-write: the same with a removal: it went with the version from before the
    /// update queued ahead of it, met the update as a 412, and the movie stayed listed.
    @Test func aRemovalMadeAfterAnUpdateGoesOnTheUpdatesAnswer() async {
        let verdict = await Self.run(
            [
                "act 2 movies add crash04 Kim", "sync 2", "act 2 movies update crash04 status want_to_watch",
                "fault 2 429", "sync 2", "act 2 movies remove crash04",
            ],
            seed: 195
        )
        #expect(verdict.violations == [])
    }

    /// needs-person: a put whose answer was lost when the device died went again after the
    /// person began acting as the managed member to vote. It carried `X-Acting-As-Member`
    /// the second time (the session's header goes with every request), and the server took
    /// it for another request (`422 idempotency_key_reused`): a dead letter.
    @Test func aWriteWhoseAnswerWasLostGoesAgainAfterItsPersonActsAsAMember() async {
        let verdict = await Self.run(
            ["act 2 notes put a 966", "fault 2 crash-after-apply", "sync 2", "act 2 family vote 438631 down kid"],
            seed: 24
        )
        #expect(verdict.violations == [])
    }

    /// last-write-wins, the harness's defect: the same write made again (the same status) is
    /// folded into the queued one with the payload it had, and is as new as the second
    /// time. The harness took the write for the first one's time only.
    @Test func theSameWriteMadeAgainIsAsNewAsTheSecondTime() async {
        let verdict = await Self.run(
            [
                "act 1 movies update heat status want_to_watch", "act 2 movies update heat status watching", "wait 1.213",
                "act 1 movies update heat status want_to_watch", "sync 2",
            ],
            seed: 399
        )
        #expect(verdict.violations == [])
    }

    /// needs-person, with restores (`ferry-sim --restores`, seed 8, once family followed
    /// them): a vote queued for a round the restored server forgot can never be taken
    /// (`404 round_not_found`). It stays dead for the person to see, by design, and the run
    /// passes; any other dead write would still fail it.
    @Test func aVoteInARoundTheRestoredServerForgotStaysForAPersonToSee() async {
        let verdict = await Self.run(
            [
                "act 0 family close", "sync 0", "act 1 family start night-63", "sync 1", "act 1 family vote 949 up self",
                "restore-server",
            ],
            seed: 8,
            restores: true
        )
        #expect(verdict.violations == [])
    }

    /// diverged, with restores (`ferry-sim --restores`, seed 85): device 1 pulled before the
    /// backup, wrote a note after it, and the server was restored without the note; its
    /// cursor was one the restored server knew, so it kept showing the note for good. A
    /// second write after the restore must not hide the first (the device presents the
    /// change numbers of both).
    @Test func aNoteTheRestoredServerForgotIsForgottenThoughAnotherWriteCameAfter() async {
        let verdict = await Self.run(
            ["act 1 notes put c 313", "sync 1", "restore-server", "act 1 notes put d 102"],
            seed: 85,
            only: ["recipes", "notes"],
            restores: true
        )
        #expect(verdict.violations == [])
    }
}
