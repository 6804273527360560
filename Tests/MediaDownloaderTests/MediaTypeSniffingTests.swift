import Foundation
import MediaDownloader
import NotificationModel
import Testing

@Suite("Sniffing types from bytes")
struct MediaTypeSniffingTests {
    @Test("every sample sniffs as its type", arguments: SampleMedia.all.map(\.name))
    func sample(name: String) throws {
        let sample = try #require(SampleMedia.all.first { $0.name == name })
        #expect(MediaType.sniff(sample.bytes) == sample.type)
    }

    @Test("the table's UTIs, MIME types, extensions and kinds")
    func table() {
        let rows = MediaType.all.map { "\($0.uti) \($0.mime) .\($0.fileExtension) \($0.kind)" }
        #expect(rows == [
            "public.jpeg image/jpeg .jpg image",
            "com.compuserve.gif image/gif .gif image",
            "public.png image/png .png image",
            "com.microsoft.waveform-audio audio/wav .wav audio",
            "public.aiff-audio audio/aiff .aiff audio",
            "public.mp3 audio/mpeg .mp3 audio",
            "public.mpeg-4-audio audio/mp4 .m4a audio",
            "public.mpeg video/mpeg .mpg video",
            "public.mpeg-2-video video/mpeg2 .m2v video",
            "public.mpeg-4 video/mp4 .mp4 video",
            "public.avi video/avi .avi video",
        ])
        #expect(MediaType(uti: "public.png") == .png)
        #expect(MediaType(uti: "public.heic") == nil)
        #expect(AttachmentKind.image.maximumSize == 10_000_000)
        #expect(AttachmentKind.audio.maximumSize == 5_000_000)
        #expect(AttachmentKind.video.maximumSize == 50_000_000)
    }

    @Test("bytes of no supported type sniff as nil")
    func unknown() {
        let cases: [[UInt8]] = [
            [],
            Array("<html><body>not found</body></html>".utf8),
            Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8),
            Array("FORM\u{0}\u{0}\u{0}\u{0}ILBM".utf8),
            [0x00, 0x00, 0x00, 0x14] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8),
            [0x00, 0x00, 0x00, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8),
            [0xFF, 0xD8],
            [0x47, 0x40, 0x00, 0x10],
            [0xFF, 0xF1, 0x50, 0x80],
            Array("ID3".utf8) + [0x09, 0, 0, 0, 0, 0, 0],
        ]
        for bytes in cases {
            #expect(MediaType.sniff(bytes) == nil, "\(bytes.prefix(16))")
        }
    }

    @Test("a bare frame sync is MP3 only when the next frame header follows where it should")
    func mpegAudioFrameChain() {
        var broken = SampleMedia.mp3Bare
        broken[417] = 0x00
        #expect(MediaType.sniff(broken) == nil)
        #expect(MediaType.sniff(Array(SampleMedia.mp3Bare.prefix(4))) == .mp3)
        #expect(MediaType.sniff([0xFF, 0xFB, 0xF0, 0x00]) == nil, "bitrate index 15 is invalid")
        #expect(MediaType.sniff([0xFF, 0xFD, 0x90, 0x00]) == nil, "layer II is not MP3")
    }

    @Test("ISO media: major brand first, then compatible brands")
    func isoBrands() {
        func iso(_ major: String, _ compatible: [String]) -> [UInt8] {
            let brands = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            return [0, 0, 0, UInt8(8 + brands.count)] + Array("ftyp".utf8) + brands
        }
        #expect(MediaType.sniff(iso("M4B ", [])) == .m4a)
        #expect(MediaType.sniff(iso("mp42", ["mp42", "isom"])) == .mp4)
        #expect(MediaType.sniff(iso("iso5", [])) == .mp4)
        #expect(MediaType.sniff(iso("3g2a", [])) == .mp4)
        #expect(MediaType.sniff(iso("XXXX", ["M4A "])) == .m4a)
        #expect(MediaType.sniff(iso("XXXX", ["abcd", "avc1"])) == .mp4)
        #expect(MediaType.sniff(iso("XXXX", ["abcd"])) == nil)
    }

    @Test("sniff(fileAt:) reads the file's first bytes; a missing file throws")
    func fileAtPath() throws {
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("picture.mp3")
        try Data(SampleMedia.png).write(to: file)
        #expect(try MediaType.sniff(fileAt: file) == .png)
        #expect(throws: (any Error).self) { try MediaType.sniff(fileAt: directory.url.appendingPathComponent("none")) }
    }
}
