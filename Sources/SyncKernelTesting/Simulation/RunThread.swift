import Foundation

/// One thread that runs a simulated run's tasks, one job at a time, in the order they were
/// queued: the run, its devices' processes (the tasks they start apart too, through
/// `TaskPlacement`) and the server answering them in the same process. A device's sends
/// that race each other then interleave the same way each time the seed runs, where
/// Swift's global pool would interleave them as its threads happened to run.
final class RunThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopped = false

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "ferry-sim run"
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
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
        while true {
            condition.lock()
            while head == jobs.count, !stopped { condition.wait() }
            if head == jobs.count {
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
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
