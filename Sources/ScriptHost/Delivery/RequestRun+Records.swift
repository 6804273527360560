import NotificationModel

/// What a request records for its result besides its content and log — posts, categories,
/// attachments — within its record budget (``ScriptLimits/recordBytes``).
extension RequestRun {
    /// What recording something for the result came to.
    enum Recording: Sendable, Equatable {
        /// It is in the result.
        case recorded
        /// The request's record budget cannot hold it: why, in one line.
        case refused(String)
        /// The phase is over: nothing was recorded.
        case phaseOver
    }

    /// Records into the result part `kind` in `phase`, within the record budget: `body`
    /// changes the part and takes what it adds from the budget. Nothing is recorded when the
    /// phase is over.
    func record<Part: ResultPart>(_ kind: Part.Type, in phase: RequestPhase, _ body: (inout Part, inout RecordBudget) -> Recording) -> Recording {
        state.withLock { s in
            guard s.phase == phase else { return .phaseOver }
            var budget = RecordBudget(limit: limits.recordBytes, used: s.recordedBytes)
            var part = s.parts[kind]
            let recording = body(&part, &budget)
            s.parts[kind] = part
            s.recordedBytes = budget.used
            return recording
        }
    }

    /// Attaches a file in `phase`, within the record budget.
    func recordAttachment(_ attachment: NotificationAttachment, in phase: RequestPhase) -> Recording {
        let size = attachment.jsonValue.compactByteCount ?? limits.recordBytes
        return state.withLock { s in
            guard s.phase == phase, phase != .afterDelivery else { return .phaseOver }
            var budget = RecordBudget(limit: limits.recordBytes, used: s.recordedBytes)
            if let refusal = budget.take(size, for: "the attachment") { return .refused(refusal) }
            s.content.attach(attachment)
            s.recordedBytes = budget.used
            return .recorded
        }
    }

    /// Removes the content's attachments in `phase`: what they held is free again.
    func removeAttachments(in phase: RequestPhase) -> Bool {
        state.withLock { s in
            guard s.phase == phase, phase != .afterDelivery else { return false }
            for attachment in s.content.attachments {
                s.recordedBytes -= attachment.jsonValue.compactByteCount ?? 0
            }
            s.recordedBytes = max(0, s.recordedBytes)
            s.content.removeAllAttachments()
            return true
        }
    }
}

/// What a request may still record for its result beside its content and log (its
/// ``ScriptLimits/recordBytes``), as a module recording into its part sees it.
struct RecordBudget {
    /// The budget.
    let limit: Int
    /// What is recorded already.
    private(set) var used: Int

    init(limit: Int, used: Int) {
        self.limit = limit
        self.used = used
    }

    /// Takes `bytes` for `what` in place of `freeing` bytes recorded before; nil when they fit,
    /// else the refusal, in one line, with nothing taken.
    mutating func take(_ bytes: Int, for what: String, freeing: Int = 0) -> String? {
        guard used - freeing + bytes > limit else {
            used += bytes - freeing
            return nil
        }
        return "too much recorded: \(what) would take this request past the \(DeliveryResult.Reason.mib(limit)) its result may record (a quarter of its memory limit) for posts, categories and attachments; it was refused"
    }
}
