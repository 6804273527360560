import Foundation
import Testing
import NotificationModel

@Suite struct AttachmentKindTests {
    @Test func appleTable() {
        #expect(AttachmentKind.image.typeIdentifiers == ["public.jpeg", "com.compuserve.gif", "public.png"])
        #expect(AttachmentKind.audio.typeIdentifiers
            == ["com.microsoft.waveform-audio", "public.aiff-audio", "public.mp3", "public.mpeg-4-audio"])
        #expect(AttachmentKind.video.typeIdentifiers == ["public.mpeg", "public.mpeg-2-video", "public.mpeg-4", "public.avi"])
        #expect(AttachmentKind.image.maximumSize == 10_000_000)
        #expect(AttachmentKind.audio.maximumSize == 5_000_000)
        #expect(AttachmentKind.video.maximumSize == 50_000_000)
        #expect(AttachmentKind.largestMaximumSize == 50_000_000)
        #expect(AttachmentKind.supportedTypeIdentifiers.count == 11)
    }

    @Test func kindOfType() {
        #expect(AttachmentKind(typeIdentifier: "public.png") == .image)
        #expect(AttachmentKind(typeIdentifier: "public.mp3") == .audio)
        #expect(AttachmentKind(typeIdentifier: "public.mpeg-4") == .video)
        #expect(AttachmentKind(typeIdentifier: "public.mpeg-4-audio") == .audio)
        #expect(AttachmentKind(typeIdentifier: "public.tiff") == nil)
        #expect(AttachmentKind(typeIdentifier: "PUBLIC.PNG") == nil)
    }

    @Test(arguments: [(AttachmentKind.image, "public.jpeg"), (.audio, "public.aiff-audio"), (.video, "public.avi")])
    func sizeBoundaries(kind: AttachmentKind, type: String) throws {
        #expect(try AttachmentKind.check(type: type, size: 0) == kind)
        #expect(try AttachmentKind.check(type: type, size: kind.maximumSize) == kind)
        let error = try #require(throws: AttachmentError.self) {
            try AttachmentKind.check(type: type, size: kind.maximumSize + 1)
        }
        #expect(error.kind == .tooLarge)
        #expect(error.message.hasPrefix("too large: \(kind.maximumSize + 1) bytes"))
    }

    @Test func tooLargeMessages() {
        #expect(message { try AttachmentKind.check(type: "public.png", size: 10_000_001) }
            == "too large: 10000001 bytes, an image attachment may be at most 10000000 bytes (10 MB)")
        #expect(message { try AttachmentKind.check(type: "public.mp3", size: 5_000_001) }
            == "too large: 5000001 bytes, an audio attachment may be at most 5000000 bytes (5 MB)")
        #expect(message { try AttachmentKind.check(type: "public.mpeg", size: 50_000_001) }
            == "too large: 50000001 bytes, a video attachment may be at most 50000000 bytes (50 MB)")
    }

    @Test func anAudioSizeThatFitsAVideoStillFailsAsAudio() {
        #expect(message { try AttachmentKind.check(type: "public.mp3", size: 6_000_000) }?.hasPrefix("too large") == true)
        #expect(message { try AttachmentKind.check(type: "public.mpeg-4", size: 6_000_000) } == nil)
    }

    @Test func unsupportedTypes() throws {
        let unknown = try #require(throws: AttachmentError.self) { try AttachmentKind.check(type: nil, size: 10) }
        #expect(unknown.kind == .unsupportedType)
        #expect(unknown.message.hasPrefix("unsupported type: the file's type is not one iOS attaches (image: JPEG"))
        let tiff = try #require(throws: AttachmentError.self) { try AttachmentKind.check(type: "public.tiff", size: 10) }
        #expect(tiff.kind == .unsupportedType)
        #expect(tiff.message.hasPrefix("unsupported type: public.tiff is not a type iOS attaches"))
        #expect(!tiff.message.contains("\n"))
        // The type is decided before the size: an unknown type is reported as such, whatever its size.
        #expect(message { try AttachmentKind.check(type: "public.heic", size: 99_000_000) }?.hasPrefix("unsupported type") == true)
    }

    @Test func negativeSizeIsRefused() {
        #expect(message { try AttachmentKind.check(type: "public.png", size: -1) } == "size must be an integer >= 0")
    }
}

@Suite struct NotificationAttachmentTests {
    @Test func validAttachment() throws {
        let attachment = try NotificationAttachment(
            identifier: "pic.jpg", type: "public.jpeg", url: "file:///tmp/a/pic.jpg", size: 48213)
        #expect(attachment.identifier == "pic.jpg")
        #expect(attachment.type == "public.jpeg")
        #expect(attachment.kind == .image)
        #expect(attachment.size == 48213)
        #expect(attachment.options.isEmpty)
        #expect(attachment.jsonValue == [
            "identifier": "pic.jpg", "type": "public.jpeg", "url": "file:///tmp/a/pic.jpg", "size": 48213,
        ])
        #expect(try attachment.jsonString()
            == #"{"identifier":"pic.jpg","type":"public.jpeg","url":"file:///tmp/a/pic.jpg","size":48213}"#)
    }

    @Test func attachmentRefusals() {
        #expect(message { try NotificationAttachment(identifier: "a", type: nil, url: "file:///a", size: 1) }?
            .hasPrefix("unsupported type") == true)
        #expect(message { try NotificationAttachment(identifier: "a", type: "public.gif", url: "file:///a", size: 1) }?
            .hasPrefix("unsupported type: public.gif") == true)
        #expect(message { try NotificationAttachment(identifier: "a", type: "com.compuserve.gif", url: "file:///a", size: 10_000_001) }?
            .hasPrefix("too large") == true)
        #expect(message { try NotificationAttachment(identifier: "a", type: "public.png", url: "https://x/a.png", size: 1) }
            == "url must be a file:// URL")
        #expect(message { try NotificationAttachment(identifier: "a", type: "public.png", url: "/tmp/a.png", size: 1) }
            == "url must be a file:// URL")
        let badRect = AttachmentOptions(thumbnailClippingRect: .init(x: 0, y: 0, width: 1.5, height: 1))
        #expect(message { try NotificationAttachment(identifier: "a", type: "public.png", url: "file:///a", size: 1, options: badRect) }
            == "thumbnailClippingRect.width must be a number from 0 to 1")
    }

    @Test func jsonWithOptions() throws {
        let options = AttachmentOptions(
            thumbnailHidden: false,
            thumbnailClippingRect: .init(x: 0.1, y: 0.1, width: 0.8, height: 0.8),
            thumbnailTime: 3
        )
        let attachment = try NotificationAttachment(
            identifier: "clip", type: "public.mpeg-4", url: "file:///m/clip.mp4", size: 1, options: options)
        #expect(try attachment.jsonString()
            == #"{"identifier":"clip","type":"public.mpeg-4","url":"file:///m/clip.mp4","size":1,"options":{"#
            + #""thumbnailHidden":false,"thumbnailClippingRect":{"x":0.1,"y":0.1,"width":0.8,"height":0.8},"thumbnailTime":3.0}}"#)
    }

    @Test func fileURLOfAPath() {
        #expect(NotificationAttachment.fileURL(forPath: "/tmp/att/pic.jpg") == "file:///tmp/att/pic.jpg")
        #expect(NotificationAttachment.fileURL(forPath: "/tmp/a b.jpg") == "file:///tmp/a%20b.jpg")
    }

    @Test func codableRoundTripChecksAgain() throws {
        let attachment = try NotificationAttachment(
            identifier: "a", type: "public.png", url: "file:///a.png", size: 5, options: .init(thumbnailHidden: true))
        let data = try JSONEncoder().encode(attachment)
        #expect(try JSONDecoder().decode(NotificationAttachment.self, from: data) == attachment)
        let forged = Data(#"{"identifier":"a","type":"public.tiff","url":"file:///a","size":5}"#.utf8)
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(NotificationAttachment.self, from: forged) }
    }
}

@Suite struct AttachmentOptionTests {
    @Test func noOptions() throws {
        #expect(try AttachmentOptions(json: nil).isEmpty)
        #expect(try AttachmentOptions(json: .null).isEmpty)
        #expect(try AttachmentOptions(json: [:]).isEmpty)
        #expect(try AttachmentOptions(json: []).isEmpty)
        #expect(try AttachmentOptions(json: [:]).jsonValue == [:])
    }

    @Test func allOptions() throws {
        let json: JSONValue = [
            "thumbnailHidden": true,
            "thumbnailClippingRect": ["x": 0, "y": 0.25, "width": 1, "height": 0.5],
            "thumbnailTime": 2,
        ]
        let options = try AttachmentOptions(json: json)
        #expect(options.thumbnailHidden == true)
        #expect(options.thumbnailClippingRect == .init(x: 0, y: 0.25, width: 1, height: 0.5))
        #expect(options.thumbnailTime == 2)
        #expect(options.jsonValue == json)
    }

    @Test func clippingRectBoundaries() throws {
        _ = try AttachmentOptions(json: ["thumbnailClippingRect": ["x": 0, "y": 0, "width": 1, "height": 1]])
        _ = try AttachmentOptions(json: ["thumbnailClippingRect": ["x": 1.0, "y": 1.0, "width": 0.0, "height": 0.0]])
        for side in ["x", "y", "width", "height"] {
            for wrong: JSONValue in [-0.01, 1.01, 2, "0.5", true, nil] {
                var rect: [String: JSONValue] = ["x": 0, "y": 0, "width": 1, "height": 1]
                rect[side] = wrong
                #expect(message { try AttachmentOptions(json: ["thumbnailClippingRect": .object(rect)]) }
                    == "thumbnailClippingRect.\(side) must be a number from 0 to 1")
            }
        }
        #expect(message { try AttachmentOptions(json: ["thumbnailClippingRect": ["x": 0, "y": 0, "width": 1]]) }
            == "thumbnailClippingRect.height must be a number from 0 to 1")
        #expect(message { try AttachmentOptions(json: ["thumbnailClippingRect": [0, 0, 1, 1]]) }
            == "thumbnailClippingRect must be {x=, y=, width=, height=}, each a number from 0 to 1")
        #expect(message { try AttachmentOptions(json: ["thumbnailClippingRect": ["x": 0, "y": 0, "width": 1, "height": 1, "w": 1]]) }
            == "thumbnailClippingRect has no field 'w'; it takes x, y, width, height")
    }

    @Test func thumbnailHiddenTakesABoolean() {
        for wrong: JSONValue in [1, "true", nil] {
            #expect(message { try AttachmentOptions(json: ["thumbnailHidden": wrong]) } == "thumbnailHidden must be a boolean")
        }
    }

    @Test func thumbnailTimeTakesSecondsFromZero() throws {
        #expect(try AttachmentOptions(json: ["thumbnailTime": 0]).thumbnailTime == 0)
        #expect(try AttachmentOptions(json: ["thumbnailTime": 12.5]).thumbnailTime == 12.5)
        for wrong: JSONValue in [-1, -0.5, "3", true] {
            #expect(message { try AttachmentOptions(json: ["thumbnailTime": wrong]) }
                == "thumbnailTime must be a number of seconds >= 0")
        }
        #expect(message { try AttachmentOptions(thumbnailTime: .infinity).validate() }
            == "thumbnailTime must be a number of seconds >= 0")
    }

    @Test func unknownOptionIsNamed() {
        #expect(message { try AttachmentOptions(json: ["thumbnailhidden": true]) }
            == "attachment options have no field 'thumbnailhidden'; they take thumbnailHidden, thumbnailClippingRect, thumbnailTime")
        #expect(message { try AttachmentOptions(json: "x") } == "options must be a table of named options")
    }

    @Test func attachOptionsCarryTheIdentifier() throws {
        let attach = try AttachOptions(json: ["identifier": "hero", "thumbnailHidden": true])
        #expect(attach.identifier == "hero")
        #expect(attach.options == AttachmentOptions(thumbnailHidden: true))
        #expect(try AttachOptions(json: nil) == AttachOptions())
        #expect(message { try AttachOptions(json: ["identifier": 5]) } == "identifier must be a string")
        #expect(message { try AttachOptions(json: ["id": "x"]) }
            == "attachment options have no field 'id'; they take identifier, thumbnailHidden, thumbnailClippingRect, thumbnailTime")
        #expect(message { try AttachOptions(json: 3) } == "attach options must be a table of named options")
        // identifier is an attach option, not a thumbnail option.
        #expect(message { try AttachmentOptions(json: ["identifier": "x"]) }?.hasPrefix("attachment options have no field 'identifier'") == true)
    }
}
