import Foundation
import Glibc
import Synchronization

/// One worker process of `serve --isolation process`: `pushscript serve` run again in worker
/// mode, its Lua states in it. Requests go to its standard input as `N LINE` (N the parent's
/// number for the request), answers come back as `N ANSWER`; a thread reads them and hands
/// each to the request waiting for it. When the worker ends (it ends itself when one of its
/// Lua threads is stuck, or it dies, or it is killed), every request still waiting for it is
/// answered by `orphaned`, once.
final class WorkerProcess: Sendable {
    private struct Waiting {
        let continuation: CheckedContinuation<[UInt8]?, Never>
        /// When the worker is given up as stuck if it has not answered.
        let giveUpAt: ContinuousClock.Instant
    }

    private struct State {
        var waiting: [Int: Waiting] = [:]
        var ended = false
        /// Set before the process is reaped: its id may be another process's from then on.
        var reaping = false
        var killedAsStuck = false
        /// Whether it ended by itself with status 0 (having answered every line it read).
        var retired = false
    }

    let pid: Int32
    private let input: Int32
    private let state = Mutex(State())
    private let writeLock = Mutex(())

    /// Starts `executable arguments...` with `environment`, its standard error the parent's.
    init(executable: String, arguments: [String], environment: [String: String]) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
            throw WorkerError(message: "no pipe for a worker process: \(String(cString: strerror(errno)))")
        }
        // The parent's ends must not leak into other workers.
        for descriptor in [toChild[1], fromChild[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        for descriptor in [toChild[0], fromChild[1]] where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw WorkerError(message: "a worker process could not be started: \(String(cString: strerror(status)))")
        }
        pid = child
        input = toChild[1]
        let output = fromChild[0]
        let thread = Thread { [self] in readAnswers(output) }
        thread.name = "serve-worker-reader"
        thread.start()
    }

    /// Sends request `number` (`line`, its line end left out) and waits for its answer: the
    /// answer line (newline included), or nil when the worker ended first. `giveUpAt`: when a
    /// worker that has not answered is taken for stuck (``overdue(at:)``).
    func request(_ number: Int, _ line: [UInt8], giveUpAt: ContinuousClock.Instant) async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            let accepted = state.withLock { s -> Bool in
                guard !s.ended else { return false }
                s.waiting[number] = Waiting(continuation: continuation, giveUpAt: giveUpAt)
                return true
            }
            guard accepted else { return continuation.resume(returning: nil) }
            var frame = Array("\(number) ".utf8)
            frame += line
            frame.append(0x0A)
            let sent = writeLock.withLock { _ in AnswerOutput.writeAll(frame, to: input) }
            // A worker that cannot be written to has ended: its reader answers the request.
            if !sent { signalIfRunning(SIGKILL) }
        }
    }

    /// Whether a request waits past its give-up time.
    func overdue(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { s in !s.ended && s.waiting.values.contains { $0.giveUpAt < now } }
    }

    /// Kills the worker as stuck: its requests are answered by the parent, its CPU stops.
    func killAsStuck() {
        state.withLock { $0.killedAsStuck = true }
        signalIfRunning(SIGKILL)
    }

    /// Kills the worker at once (serve ends without waiting for it).
    func terminate() {
        signalIfRunning(SIGKILL)
    }

    /// Sends `number` unless the process is being reaped (its id could be reused).
    private func signalIfRunning(_ number: Int32) {
        state.withLock { s in if !s.reaping { kill(pid, number) } }
    }

    /// Whether it ended by itself, every line it read answered: a request it had not read
    /// when it ended may be sent again, to its replacement.
    var retired: Bool { state.withLock { $0.retired } }

    /// Whether the worker has ended (its answers' pipe closed).
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Whether the parent killed it as stuck.
    var wasKilledAsStuck: Bool { state.withLock { $0.killedAsStuck } }

    /// Closes its input: it answers what it has and ends.
    func closeInput() {
        writeLock.withLock { _ in _ = close(input) }
    }

    /// Waits for the process to end (after ``closeInput()``), killing it after `timeout`.
    /// The reader thread reaps it; this waits for that.
    func reap(timeout: Duration) {
        let end = ContinuousClock.now + timeout
        while !hasEnded {
            if ContinuousClock.now > end { signalIfRunning(SIGKILL) }
            usleep(5000)
        }
    }

    private func readAnswers(_ descriptor: Int32) {
        let source = LineSource(descriptor: descriptor)
        reading: while true {
            switch source.poll() {
            case .line(.line(let line)):
                deliver(line)
            case .line(.tooLong):
                continue
            case .end:
                break reading
            case .wouldWait:
                source.append(LineSource.read(descriptor))
            }
        }
        close(descriptor)
        state.withLock { $0.reaping = true }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        let orphans = state.withLock { s -> [CheckedContinuation<[UInt8]?, Never>] in
            s.ended = true
            // Exited (no signal) with status 0.
            s.retired = status & 0x7f == 0 && (status >> 8) & 0xff == 0
            defer { s.waiting.removeAll() }
            return s.waiting.values.map(\.continuation)
        }
        for orphan in orphans { orphan.resume(returning: nil) }
    }

    private func deliver(_ line: [UInt8]) {
        guard let space = line.firstIndex(of: 0x20), let number = Int(String(decoding: line[..<space], as: UTF8.self)) else { return }
        let waiting = state.withLock { $0.waiting.removeValue(forKey: number) }
        waiting?.continuation.resume(returning: Array(line[(space + 1)...]) + [0x0A])
    }
}

/// A worker process could not be had.
struct WorkerError: Error {
    let message: String
}
