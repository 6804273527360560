import MediaDownloader

/// An answer for downloads of one URL from a file, with a status, a content type and a delay
/// (`--media URL=FILE`, a fixture's `media`). It goes through the same download code as the
/// network does.
public typealias MediaAnswer = FixtureMedia
