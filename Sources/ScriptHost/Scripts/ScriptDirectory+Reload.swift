import Foundation
import LuaSandbox

extension ScriptDirectory {
    /// A reload of one app's file, as a lookup started it.
    struct Reload: Sendable {
        let app: String
        let file: URL
        /// The entry the reload updates; a reload whose entry was dropped (the file was deleted)
        /// changes nothing.
        let entryID: Int
        /// Orders reloads: one never overwrites what a later one applied.
        let sequence: Int
        /// The bytes examined before, so that unchanged bytes are not compiled again.
        let known: [UInt8]?
        /// The entry's ``Entry/version`` that `known` belongs to.
        let version: Int
    }

    /// What reading and compiling a file found.
    enum Examination: Sendable {
        /// The bytes are those examined before.
        case same(FileStamp, settled: Bool)
        /// A new version that compiles.
        case compiled(Script, FileStamp, settled: Bool)
        /// A version that cannot go into service: why, and its bytes and stamp when it was read.
        case rejected(String, bytes: [UInt8]?, stamp: FileStamp?, settled: Bool)
        /// The file is gone.
        case absent
        /// No Lua thread was free to check it: nothing changes, and a later lookup tries again.
        case unchecked(String)
    }

    /// How long a compile check may take before its state is given up; also the most CPU it
    /// may be given (``cpuTime``).
    static let compileDeadline = Duration.seconds(10)

    /// Reads and checks the file, applies what it found, reports it, and returns what requests
    /// get now.
    func perform(_ reload: Reload) async -> ScriptLookup {
        let examination = await examine(reload)
        let (lookup, event) = state.withLock { s in apply(examination, of: reload, to: &s) }
        if let event { reporter(event) }
        return lookup
    }

    /// Reads and compiles the file in a sandbox on a Lua thread.
    private func examine(_ reload: Reload) async -> Examination {
        let name = reload.file.lastPathComponent
        let compiler: LuaSandbox
        do { compiler = try compilers.checkOut() } catch {
            return .rejected("\(name) could not be checked: \(error.message)", bytes: nil, stamp: nil, settled: false)
        }
        let (memoryLimit, cpuTime) = (self.memoryLimit, self.cpuTime)
        let outcome = await executor.run(compiler, deadline: .after(Self.compileDeadline)) { sandbox in
            Self.examine(reload, in: sandbox, memoryLimit: memoryLimit, cpuTime: cpuTime)
        }
        switch outcome {
        case .finished(let examination):
            compilers.checkIn(compiler)
            return examination
        case .notStarted:
            compilers.checkIn(compiler)
            return .unchecked("\(name) could not be checked: no Lua thread was free within \(Self.compileDeadline)")
        case .abandoned:
            return .rejected("\(name) did not compile within \(Self.compileDeadline)", bytes: nil, stamp: nil, settled: false)
        }
    }

    /// Reads the file and compiles it unless it holds the bytes seen before. On a Lua thread.
    private static func examine(_ reload: Reload, in sandbox: LuaSandbox, memoryLimit: Int, cpuTime: Duration) -> Examination {
        let name = reload.file.lastPathComponent
        // Taken before reading: a change after this moment gets a later file time than one
        // that is settled now.
        let now = ScriptFileSystem.now()
        switch ScriptFileSystem.contents(of: reload.file.path, limit: Script.maximumSize) {
        case .absent:
            return .absent
        case .unreadable(let why):
            return .rejected("cannot read \(name): \(why)", bytes: nil, stamp: nil, settled: false)
        case .tooLarge(let stamp):
            return .rejected(
                ScriptCompiler.tooLargeMessage(name, bytes: Int(stamp.size)),
                bytes: nil, stamp: stamp, settled: stamp.isSettled(at: now))
        case .bytes(let bytes, let stamp):
            let settled = stamp.isSettled(at: now)
            if let known = reload.known, known == bytes { return .same(stamp, settled: settled) }
            switch ScriptCompiler.check(bytes, chunkName: name, in: sandbox, memoryLimit: memoryLimit, cpuTime: cpuTime) {
            case nil:
                return .compiled(Script(name: name, source: bytes, directory: reload.file.deletingLastPathComponent()), stamp, settled: settled)
            case .tooLarge(let size)?:
                return .rejected(ScriptCompiler.tooLargeMessage(name, bytes: size), bytes: bytes, stamp: stamp, settled: settled)
            case .refused(let status)?:
                return .rejected(compileMessage(status, name: name, memoryLimit: memoryLimit), bytes: bytes, stamp: stamp, settled: settled)
            }
        }
    }

    private static func compileMessage(_ status: RunStatus, name: String, memoryLimit: Int) -> String {
        switch status {
        case .error(let message): return message
        case .limit(.memory): return "\(name) did not load: compiling it needed more than \(DeliveryResult.Reason.mib(memoryLimit)) of memory"
        case .limit(let kind): return "\(name) did not load: compiling it hit the \(kind.rawValue) limit"
        case .completed, .missing: return "\(name) did not load"
        }
    }

    /// What requests get for a version that cannot go into service, with no earlier one: the
    /// script it is, when its bytes were read (so that the result names it), and why.
    private static func refused(_ message: String, _ bytes: [UInt8]?, _ reload: Reload) -> ScriptLookup {
        guard let bytes else { return .failed(message) }
        return .rejected(Script(name: reload.file.lastPathComponent, source: bytes, directory: reload.file.deletingLastPathComponent()), message)
    }

    /// Applies what a reload found to the app's entry, unless a later reload already did or the
    /// entry was dropped; returns what requests get and what to report.
    private func apply(_ examination: Examination, of reload: Reload, to s: inout State) -> (ScriptLookup, Event?) {
        guard var entry = s.entries[reload.app], entry.id == reload.entryID else {
            // The file was deleted meanwhile: the waiting requests get what this reload found.
            switch examination {
            case .compiled(let script, _, _): return (.script(script), nil)
            case .rejected(let message, let bytes, _, _): return (Self.refused(message, bytes, reload), nil)
            case .unchecked(let message): return (.failed(message), nil)
            case .same, .absent: return (.missing, nil)
            }
        }
        if case .unchecked(let message) = examination {
            // Nothing was learnt: the entry stays as it was, and the next lookup reloads.
            if entry.pending?.sequence == reload.sequence { entry.pending = nil }
            s.entries[reload.app] = entry
            return (entry.lastGood.map { .script($0) } ?? (entry.version == 0 ? .failed(message) : entry.lookup), nil)
        }
        if entry.pending?.sequence == reload.sequence { entry.pending = nil }
        defer { s.entries[reload.app] = entry }
        guard reload.sequence > entry.applied else { return (entry.lookup, nil) }
        switch examination {
        case .same(let stamp, let settled):
            // Only when the bytes compared against are still the ones in view.
            guard entry.version == reload.version else { return (entry.lookup, nil) }
            entry.applied = reload.sequence
            entry.stamp = stamp
            entry.settled = settled
            return (entry.lookup, nil)
        case .compiled(let script, let stamp, let settled):
            let afterFailure = entry.rejection != nil
            entry.applied = reload.sequence
            entry.stamp = stamp
            entry.settled = settled
            entry.examined = script.source
            entry.version += 1
            entry.lastGood = script
            entry.rejection = nil
            entry.lookup = .script(script)
            return (entry.lookup, .loaded(app: reload.app, file: script.name, afterFailure: afterFailure))
        case .rejected(let message, let bytes, let stamp, let settled):
            entry.applied = reload.sequence
            entry.stamp = stamp
            entry.settled = settled
            entry.examined = bytes
            entry.version += 1
            entry.lookup = entry.lastGood.map { .script($0) } ?? Self.refused(message, bytes, reload)
            let event: Event? = entry.rejection == message
                ? nil : .rejected(app: reload.app, message: message, keepingLastGood: entry.lastGood != nil)
            entry.rejection = message
            return (entry.lookup, event)
        case .unchecked:
            return (entry.lookup, nil)
        case .absent:
            entry.applied = reload.sequence
            entry.stamp = nil
            entry.examined = nil
            entry.version += 1
            entry.lastGood = nil
            entry.rejection = nil
            entry.lookup = .missing
            return (.missing, nil)
        }
    }
}
