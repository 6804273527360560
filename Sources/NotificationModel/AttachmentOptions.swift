/// The thumbnail options of an attachment (`UNNotificationAttachmentOptions…Key`).
public struct AttachmentOptions: Sendable, Hashable, Codable, JSONWritable {
    /// The part of an image to show as the thumbnail, in unit coordinates (each 0…1).
    public struct ClippingRect: Sendable, Hashable, Codable {
        /// The left edge, 0…1.
        public var x: Double
        /// The top edge, 0…1.
        public var y: Double
        /// The width, 0…1.
        public var width: Double
        /// The height, 0…1.
        public var height: Double

        /// Creates a rectangle; ``AttachmentOptions/validate()`` checks its range.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// Whether the thumbnail is hidden; nil leaves iOS's default (shown).
    public var thumbnailHidden: Bool?
    /// The part of the image shown as the thumbnail; nil for the whole image.
    public var thumbnailClippingRect: ClippingRect?
    /// The frame of an audio or video file shown as the thumbnail, in seconds (>= 0).
    public var thumbnailTime: Double?

    /// Creates options; nil leaves an option unset.
    public init(thumbnailHidden: Bool? = nil, thumbnailClippingRect: ClippingRect? = nil, thumbnailTime: Double? = nil) {
        self.thumbnailHidden = thumbnailHidden
        self.thumbnailClippingRect = thumbnailClippingRect
        self.thumbnailTime = thumbnailTime
    }

    /// Whether no option is set.
    public var isEmpty: Bool {
        thumbnailHidden == nil && thumbnailClippingRect == nil && thumbnailTime == nil
    }

    /// Checks the ranges: each side of the clipping rectangle 0…1, the time a finite number >= 0.
    ///
    /// - Throws: ``AttachmentError`` naming the option and what it takes.
    public func validate() throws(AttachmentError) {
        if let rect = thumbnailClippingRect {
            for (name, value) in [("x", rect.x), ("y", rect.y), ("width", rect.width), ("height", rect.height)]
            where !(0...1).contains(value) {
                throw AttachmentError(.invalidValue, "thumbnailClippingRect.\(name) must be a number from 0 to 1")
            }
        }
        if let time = thumbnailTime, !(time.isFinite && time >= 0) {
            throw AttachmentError(.invalidValue, Self.timeRequirement)
        }
    }

    static let timeRequirement = "thumbnailTime must be a number of seconds >= 0"

    /// Writes the options: only the ones set, the rectangle as `{x, y, width, height}`.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        if let thumbnailHidden {
            sink.key(literal: "thumbnailHidden")
            sink.write(bool: thumbnailHidden)
        }
        if let rect = thumbnailClippingRect {
            sink.key(literal: "thumbnailClippingRect")
            sink.beginObject()
            for (side, number) in [("x", rect.x), ("y", rect.y), ("width", rect.width), ("height", rect.height)] {
                sink.key(side)
                sink.write(number: number)
            }
            sink.endObject()
        }
        if let thumbnailTime {
            sink.key(literal: "thumbnailTime")
            sink.write(number: thumbnailTime)
        }
        sink.endObject()
    }
}
