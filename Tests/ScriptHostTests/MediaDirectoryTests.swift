import Foundation
import Glibc
import NotificationModel
import Testing
@testable import ScriptHost

/// Files of `--media-dir`: opened once without following links or blocking, checked on the
/// opened file, copied from it.
@Suite(.serialized) struct MediaDirectoryTests {
    /// Attaches each path and says, per path, the attached type or the error.
    func attachAll(_ paths: [String], host: ScriptHost) async throws -> ([String], DeliveryResult) {
        let list = paths.map { "\"\($0)\"" }.joined(separator: ", ")
        let result = try await deliver("""
            function didReceive(r, c)
              local out = {}
              for _, p in ipairs{\(list)} do
                local a, err = c:attach{path = p}
                out[#out + 1] = a and a.type or err
              end
              c.body = table.concat(out, "|")
            end
            """, host: host)
        return (result.content.body.split(separator: "|").map(String.init), result)
    }

    @Test func linksFIFOsAndFoldersAreRefusedAndAFileIsCopiedFromWhatWasChecked() async throws {
        let media = try MediaFolder(), out = try MediaFolder(), outside = try MediaFolder()
        defer { media.remove(); out.remove(); outside.remove() }
        let big = try outside.write("big.jpg", MediaFolder.jpeg + Array(repeating: 0, count: 12_000_000))
        _ = try media.write("pic.jpg", MediaFolder.jpeg)
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: media.url.appendingPathComponent("big-link.jpg").path, withDestinationPath: big.path)
        try fm.createSymbolicLink(atPath: media.url.appendingPathComponent("inner-link.jpg").path, withDestinationPath: "pic.jpg")
        try fm.createSymbolicLink(atPath: media.url.appendingPathComponent("away").path, withDestinationPath: outside.url.path)
        try fm.createDirectory(at: media.url.appendingPathComponent("folder.jpg"), withIntermediateDirectories: true)
        #expect(mkfifo(media.url.appendingPathComponent("pipe.jpg").path, 0o600) == 0)
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        let start = ContinuousClock.now
        let (parts, result) = try await attachAll(
            ["pic.jpg", "big-link.jpg", "inner-link.jpg", "away/big.jpg", "folder.jpg", "pipe.jpg", "\(media.url.path)/pic.jpg"], host: host)
        #expect(ContinuousClock.now - start < .seconds(2), "a FIFO must not block")
        try #require(parts.count == 7, "\(parts)")
        #expect(parts[0] == "public.jpeg")
        #expect(parts[1] == "not allowed: big-link.jpg is a symbolic link; only regular files of the media directory can be attached")
        #expect(parts[2] == "not allowed: inner-link.jpg is a symbolic link; only regular files of the media directory can be attached")
        #expect(parts[3] == "not allowed: away/big.jpg: 'away' is a link or not a folder; only files inside the media directory, reached without links, can be attached")
        #expect(parts[4] == "not allowed: folder.jpg is a folder, not a regular file")
        #expect(parts[5] == "not allowed: pipe.jpg is a FIFO, not a regular file")
        #expect(parts[6] == "public.jpeg")
        // The attached file is a regular file of its own, of the checked size.
        let attached = try #require(result.attachmentFiles.first)
        let attributes = try fm.attributesOfItem(atPath: attached.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect((attributes[.size] as? NSNumber)?.intValue == MediaFolder.jpeg.count)
        #expect(result.content.attachments.first?.size == MediaFolder.jpeg.count)
    }

    @Test func aFileOverTheLimitIsRefusedByItsOpenedSize() async throws {
        let media = try MediaFolder(), out = try MediaFolder()
        defer { media.remove(); out.remove() }
        _ = try media.write("big.jpg", MediaFolder.jpeg + Array(repeating: 0, count: 12_000_000))
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        let (parts, _) = try await attachAll(["big.jpg"], host: host)
        #expect(parts == ["too large: \(MediaFolder.jpeg.count + 12_000_000) bytes, an image attachment may be at most 10000000 bytes (10 MB)"])
    }

    @Test func aFileSwappedForALinkIsNeverAttachedThroughIt() async throws {
        let media = try MediaFolder(), out = try MediaFolder(), outside = try MediaFolder()
        defer { media.remove(); out.remove(); outside.remove() }
        let secret = try outside.write("secret.png", MediaFolder.png)
        let inside = MediaFolder.jpeg
        let file = media.url.appendingPathComponent("pic.jpg")
        let swapped = media.url.appendingPathComponent("swap.tmp")
        try Data(inside).write(to: file)
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        // Another thread swaps the file for a link to a file outside the folder and back.
        let stop = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            while stop.wait(timeout: .now()) != .success {
                _ = unlink(swapped.path)
                _ = symlink(secret.path, swapped.path)
                _ = rename(swapped.path, file.path)
                try? Data(inside).write(to: swapped)
                _ = rename(swapped.path, file.path)
            }
            stopped.signal()
        }.start()
        var attached = 0, refused = 0
        for _ in 0..<300 {
            let (parts, result) = try await attachAll(["pic.jpg"], host: host)
            if parts.first == "public.jpeg" {
                attached += 1
                let bytes = try Data(contentsOf: try #require(result.attachmentFiles.first))
                #expect(Array(bytes) == inside, "an attachment holds bytes from outside the folder")
                result.removeAttachmentFiles()
            } else {
                refused += 1
                #expect(parts.first?.hasPrefix("not allowed: pic.jpg is a symbolic link") == true
                    || parts.first?.hasPrefix("cannot read pic.jpg") == true, "\(parts)")
            }
        }
        stop.signal()
        stopped.wait()
        #expect(attached + refused == 300)
        print("media swap race: \(attached) attached from inside the folder, \(refused) refused, 0 through the link")
    }
}
