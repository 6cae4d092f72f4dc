import Foundation

/// One thread that runs a simulated run's tasks, one job at a time, in the order they were
/// queued: the run, its devices' processes (the tasks they start apart too, through
/// `TaskPlacement`) and the server answering them in the same process. A device's sends
/// that race each other then interleave the same way each time the seed runs, where
/// Swift's global pool would interleave them as its threads happened to run.
final class RunThread: TaskExecutor, @unchecked Sendable {
    /// A core for each run thread that has jobs to run. A test process runs many
    /// simulations at once: threads of their own beyond the cores would take the machine
    /// from Swift's pool, where every other test runs (a lease renewed on a real-time
    /// timer missed its test's twenty seconds). Past the cores, a run's thread waits, as
    /// the run's jobs would have waited in the pool.
    private static let cores = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopped = false
    /// The thread has ended: a job queued now (a task of the run that outlived it) runs
    /// on Swift's pool instead.
    private var ended = false

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "ferry-sim run"
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        if ended {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run what is queued.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        var holdsCore = false
        while true {
            condition.lock()
            if head == jobs.count, holdsCore {
                condition.unlock()
                Self.cores.signal()
                holdsCore = false
                continue
            }
            while head == jobs.count, !stopped { condition.wait() }
            if head == jobs.count {
                ended = true
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            if !holdsCore {
                Self.cores.wait()
                holdsCore = true
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
