public struct MediaAnswer: Sendable, Hashable {}
