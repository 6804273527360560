import Dispatch
import Glibc
import Synchronization

/// The signals `serve` answers: SIGTERM, SIGINT and SIGHUP ask for a drain (`first`), a second
/// one of them for an end at once (`second`); SIGPIPE is ignored, so that a closed output is a
/// failed write, not a death.
final class ServeSignals: Sendable {
    /// The signals that stop serving.
    static let stopping: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    private let sources: Mutex<[any DispatchSourceSignal]>

    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    init(first: @escaping @Sendable (Int32) -> Void, second: @escaping @Sendable (Int32) -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let count = Count()
        let made = Self.stopping.map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if count.value.add(1, ordering: .relaxed).newValue == 1 { first(number) } else { second(number) }
            }
            source.resume()
            return source
        }
        sources = Mutex(made)
    }

    /// The signal's name: `SIGTERM`.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
