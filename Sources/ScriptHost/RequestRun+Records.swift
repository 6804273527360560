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

    /// The refusal when `bytes` more do not fit in the record budget beside what is recorded.
    private func overBudget(_ s: State, adding bytes: Int, what: String) -> String? {
        let budget = limits.recordBytes
        guard s.recordedBytes + bytes > budget else { return nil }
        return "too much recorded: \(what) would take this request past the \(DeliveryResult.Reason.mib(budget)) its result may record (a quarter of its memory limit) for posts, categories and attachments; it was refused"
    }

    /// Records a post made in `phase` (one made after delivery is marked so), within the record
    /// budget.
    func recordPost(_ record: PostRecord, in phase: RequestPhase) -> Recording {
        state.withLock { s in
            guard s.phase == phase else { return .phaseOver }
            let size = record.recordedBytes
            if let refusal = overBudget(s, adding: size, what: "the post") { return .refused(refusal) }
            var record = record
            record.after = phase == .afterDelivery
            s.posts.append(record)
            s.recordedBytes += size
            return .recorded
        }
    }

    /// Records a category registered in `phase`, `bytes` large (as the script gave it): one
    /// entry per identifier, the last registration replacing an earlier one in place, within
    /// the record budget.
    func recordCategory(_ category: NotificationCategory, bytes: Int, in phase: RequestPhase) -> Recording {
        state.withLock { s in
            guard s.phase == phase, phase != .afterDelivery else { return .phaseOver }
            if let index = s.categoryIndex[category.identifier] {
                let old = s.categorySizes[index]
                s.recordedBytes -= old
                if let refusal = overBudget(s, adding: bytes, what: "registering '\(category.identifier)' again") {
                    s.recordedBytes += old
                    return .refused(refusal)
                }
                s.categories[index] = category
                s.categorySizes[index] = bytes
            } else {
                if let refusal = overBudget(s, adding: bytes, what: "registering '\(category.identifier)'") { return .refused(refusal) }
                s.categoryIndex[category.identifier] = s.categories.count
                s.registeredCategories.append(category.identifier)
                s.categories.append(category)
                s.categorySizes.append(bytes)
            }
            s.recordedBytes += bytes
            return .recorded
        }
    }

    /// Attaches a file in `phase`, within the record budget.
    func recordAttachment(_ attachment: NotificationAttachment, in phase: RequestPhase) -> Recording {
        let size = attachment.jsonValue.compactByteCount ?? limits.recordBytes
        return state.withLock { s in
            guard s.phase == phase, phase != .afterDelivery else { return .phaseOver }
            if let refusal = overBudget(s, adding: size, what: "the attachment") { return .refused(refusal) }
            s.content.attach(attachment)
            s.recordedBytes += size
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
